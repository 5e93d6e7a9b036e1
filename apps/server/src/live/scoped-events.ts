import type { MailEvent } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { scopedFolderCounts, uidsInScope, type FolderCounts, type Scope } from '../mailbox/index.js';

/**
 * What a session held to one address (password access, SPEC §6) hears of its account's events:
 * only what concerns mail in its scope. The bus carries the whole account's events (uids, folder
 * counters), so each is translated here, one after the other in publishing order:
 *
 * - `new`, `store`: the uids in its scope, or nothing;
 * - `updateMailbox`: the folder's counts within its scope, and only when they changed;
 * - `move`: its uids are gone from the source folder, so it cannot be sorted out by uid: it is
 *   passed on, without uids, only when it changed the counts the session sees of either folder;
 * - `updateMailboxList` (folders created, renamed, removed; a lost connection): passed on;
 * - `filterRun` (a filter applied to a folder): filters are the owner's alone, so never;
 * - `updateAccount` (settings, profiles, contacts, groups, labels, filters changed): the owner's alone, so never.
 */
export class ScopedEvents {
  /** The counts last told to the client, per folder; filled when the socket opens. */
  private counts: Map<number, FolderCounts> | undefined;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly accountId: number,
    private readonly scope: Scope,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  /** Queues `event`; `send` gets its translation, if any, after those of the events before it. */
  push(event: MailEvent, send: (event: MailEvent) => void): void {
    this.queue = this.queue
      .then(() => this.translate(event))
      .then(
        (translated) => {
          if (translated) send(translated);
        },
        (err: unknown) => this.log.warn({ err }, 'websocket event not translated to the session scope'),
      );
  }

  private async known(): Promise<Map<number, FolderCounts>> {
    this.counts ??= await scopedFolderCounts(this.db, this.accountId, this.scope);
    return this.counts;
  }

  private async changed(folderId: number): Promise<boolean> {
    const known = await this.known();
    const now = (await scopedFolderCounts(this.db, this.accountId, this.scope, [folderId])).get(folderId);
    const before = known.get(folderId);
    return now?.total !== before?.total || now?.unread !== before?.unread;
  }

  private async translate(event: MailEvent): Promise<MailEvent | undefined> {
    switch (event.event) {
      case 'new':
      case 'store': {
        const uids = await uidsInScope(this.db, this.accountId, event.folder_id, event.uids, this.scope);
        return uids.length ? { ...event, uids } : undefined;
      }
      case 'move': {
        const folders = [event.folder_id, ...(event.to_folder_id === null ? [] : [event.to_folder_id])];
        for (const folderId of folders) if (await this.changed(folderId)) return { ...event, uids: [] };
        return undefined;
      }
      case 'updateMailbox': {
        const known = await this.known();
        const now = (await scopedFolderCounts(this.db, this.accountId, this.scope, [event.folder_id])).get(
          event.folder_id,
        );
        if (!now) return undefined;
        const before = known.get(event.folder_id);
        if (before?.total === now.total && before.unread === now.unread) return undefined;
        known.set(event.folder_id, now);
        return { event: 'updateMailbox', folder_id: event.folder_id, unseen: now.unread, total: now.total };
      }
      case 'updateMailboxList':
        return event;
      case 'filterRun':
      case 'contactImport':
      case 'mailImport':
      case 'updateAccount':
        return undefined;
    }
  }

  /** Reads the counts the client starts from (the folder list it loads when the socket opens). */
  prime(): void {
    this.queue = this.queue.then(
      async () => void (await this.known()),
      () => undefined,
    );
  }
}
