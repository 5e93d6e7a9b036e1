import type { ActionResult, FolderMessages, FolderSystem, MailEvent, MarkFlag } from '@mailroom/protocol';
import { transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { requireFolder, systemFolder } from './folders.repository.js';
import { requireLabel } from './labels.js';
import {
  allocateUids,
  folderSystems,
  lockAccount,
  lockFolders,
  lockMessages,
  relocateMessages,
  setFlag,
  setLabel,
  type LockedMessage,
} from './mailbox.repository.js';
import { counterEvent, mergeGroups, purgeLocked, unseenCount } from './purge.js';
import { queueSpamLessons } from './spam-lessons.js';

/**
 * The message operations of the store: mark (flags and labels), move, delete (to Trash, or for good from Trash and
 * Junk), purge and empty a folder. Each runs in the caller's transaction when `db` is one, else in its own, takes
 * the locks in the one order (account row, folders by id, messages by id) and returns the events for after commit.
 */

/** What an action did, and the events to publish once its transaction has committed. */
export interface ActionOutcome {
  result: ActionResult;
  events: MailEvent[];
}

/** Locks the folders in id order; any id that is not the caller's folder refuses the whole action. */
export async function lockOwnFolders(trx: Trx, accountId: number, folderIds: number[]) {
  const wanted = new Set(folderIds);
  const locked = await lockFolders(trx, accountId, [...wanted]);
  if (locked.length !== wanted.size) throw new DomainError('entity_not_found');
  return new Map(locked.map((f) => [f.id, f]));
}

export async function markMessages(
  db: Db,
  accountId: number,
  request: { flag: MarkFlag; folder_messages: FolderMessages[]; label_id?: number | undefined },
): Promise<ActionOutcome> {
  return transact(db, async (trx) => {
    const { flag } = request;
    const labelled = flag === 'label' || flag === 'unlabel';
    if (labelled && request.label_id === undefined) throw new DomainError('request_label_id_error');
    const label = labelled ? await requireLabel(trx, accountId, request.label_id!) : null;
    const groups = mergeGroups(request.folder_messages);
    await lockAccount(trx, accountId);
    await lockOwnFolders(
      trx,
      accountId,
      groups.map((g) => g.folder_id),
    );
    const events: MailEvent[] = [];
    const marked: FolderMessages[] = [];
    for (const group of groups) {
      const messages = await lockMessages(trx, accountId, group.folder_id, group.message_uids);
      if (!messages.length) continue;
      const ids = messages.map((m) => m.id);
      const changed = label
        ? await setLabel(trx, ids, label.id, flag === 'label')
        : await setFlag(trx, ids, flag as 'seen');
      if (!changed.length) continue;
      const uids = changed.map((m) => m.uid);
      marked.push({ folder_id: group.folder_id, message_uids: uids });
      events.push({ event: 'store', folder_id: group.folder_id, uids });
      const unread = flag === 'seen' ? -changed.length : flag === 'unseen' ? changed.length : 0;
      events.push(await counterEvent(trx, group.folder_id, 0, unread));
    }
    return { result: { ok: true, marked }, events };
  });
}

/**
 * Moves messages whose folders (and the destination) this transaction has locked: one block of
 * new UIDs from the destination's UIDNEXT, as IMAP MOVE does; flags, labels and thread stay.
 */
export async function moveLocked(
  trx: Trx,
  accountId: number,
  destinationId: number,
  groups: FolderMessages[],
  /** The folders this transaction locked (lockOwnFolders), with their system roles. */
  locked: Map<number, { system: FolderSystem | null }>,
) {
  const events: MailEvent[] = [];
  const sources: { folderId: number; messages: LockedMessage[] }[] = [];
  for (const group of groups) {
    if (group.folder_id === destinationId) continue;
    const messages = await lockMessages(trx, accountId, group.folder_id, group.message_uids);
    if (messages.length) sources.push({ folderId: group.folder_id, messages });
  }
  const all = sources.flatMap((s) => s.messages);
  if (!all.length) return { moved: [], events };
  await queueSpamLessons(
    trx,
    accountId,
    locked.get(destinationId)?.system ?? null,
    sources.map((s) => ({
      system: locked.get(s.folderId)?.system ?? null,
      messageIds: s.messages.map((m) => m.id),
    })),
  );
  const first = await allocateUids(trx, destinationId, all.length);
  const newUids = all.map((_, i) => first + i);
  await relocateMessages(
    trx,
    destinationId,
    all.map((m) => m.id),
    newUids,
  );
  const moved = all.map((m, i) => ({
    folder_id: 0,
    uid: m.uid,
    destination_id: destinationId,
    destination_uid: newUids[i]!,
  }));
  let offset = 0;
  for (const source of sources) {
    for (const m of moved.slice(offset, offset + source.messages.length)) m.folder_id = source.folderId;
    offset += source.messages.length;
    events.push({
      event: 'move',
      folder_id: source.folderId,
      to_folder_id: destinationId,
      uids: source.messages.map((m) => m.uid),
    });
    events.push(
      await counterEvent(trx, source.folderId, -source.messages.length, -unseenCount(source.messages)),
    );
  }
  events.push({ event: 'new', folder_id: destinationId, uids: newUids });
  events.push(await counterEvent(trx, destinationId, all.length, unseenCount(all)));
  return { moved, events };
}

export async function moveMessages(
  db: Db,
  accountId: number,
  request: { destination_id: number; folder_messages: FolderMessages[] },
): Promise<ActionOutcome> {
  return transact(db, async (trx) => {
    const groups = mergeGroups(request.folder_messages);
    await lockAccount(trx, accountId);
    const locked = await lockOwnFolders(trx, accountId, [
      request.destination_id,
      ...groups.map((g) => g.folder_id),
    ]);
    // Scheduled and Snoozed hold what waits for a time: mail enters them only by being scheduled or snoozed.
    const into = locked.get(request.destination_id)?.system;
    if (into === 'scheduled' || into === 'snoozed') throw new DomainError('forbidden');
    const { moved, events } = await moveLocked(trx, accountId, request.destination_id, groups, locked);
    return { result: { ok: true, moved }, events };
  });
}

const isDisposal = (system: string | null) => system === 'trash' || system === 'junk';

/** POST messages/delete: to Trash; what is already in Trash or Junk goes for good. */
export async function deleteMessages(
  db: Db,
  accountId: number,
  request: { folder_messages: FolderMessages[] },
): Promise<ActionOutcome> {
  return transact(db, async (trx) => {
    const groups = mergeGroups(request.folder_messages);
    const systems = new Map(
      (
        await folderSystems(
          trx,
          accountId,
          groups.map((g) => g.folder_id),
        )
      ).map((f) => [f.id, f.system]),
    );
    if (systems.size !== groups.length) throw new DomainError('entity_not_found');
    const purge = groups.filter((g) => isDisposal(systems.get(g.folder_id) ?? null));
    const toTrash = groups.filter((g) => !isDisposal(systems.get(g.folder_id) ?? null));
    await lockAccount(trx, accountId);
    const trash = toTrash.length ? await systemFolder(trx, accountId, 'trash') : null;
    const locked = await lockOwnFolders(trx, accountId, [
      ...groups.map((g) => g.folder_id),
      ...(trash ? [trash.id] : []),
    ]);

    const { deleted, events } = await purgeGroups(trx, accountId, purge);
    const moved = trash
      ? await moveLocked(trx, accountId, trash.id, toTrash, locked)
      : { moved: [], events: [] };
    events.push(...moved.events);
    return { result: { ok: true, deleted, moved: moved.moved }, events };
  });
}

/** Removes messages for good from whatever folder they are in: rows gone, counters and quota given back. */
export async function purgeMessages(
  db: Db,
  accountId: number,
  request: { folder_messages: FolderMessages[] },
): Promise<ActionOutcome> {
  return transact(db, async (trx) => {
    const groups = mergeGroups(request.folder_messages);
    await lockAccount(trx, accountId);
    await lockOwnFolders(
      trx,
      accountId,
      groups.map((g) => g.folder_id),
    );
    const { deleted, events } = await purgeGroups(trx, accountId, groups);
    return { result: { ok: true, deleted }, events };
  });
}

/** Purges the named messages of folders this transaction has locked. */
async function purgeGroups(trx: Trx, accountId: number, groups: FolderMessages[]) {
  const events: MailEvent[] = [];
  const deleted: FolderMessages[] = [];
  for (const group of groups) {
    const messages = await lockMessages(trx, accountId, group.folder_id, group.message_uids);
    const purged = await purgeLocked(trx, accountId, group.folder_id, messages);
    if (purged.deleted) deleted.push(purged.deleted);
    events.push(...purged.events);
  }
  return { deleted, events };
}

/** POST messages/empty: every message of Trash or Junk, for good; any other folder is forbidden. */
export async function emptyFolder(db: Db, accountId: number, folderId: number): Promise<ActionOutcome> {
  return transact(db, async (trx) => {
    const folder = await requireFolder(trx, accountId, folderId);
    if (!isDisposal(folder.system)) throw new DomainError('forbidden');
    await lockAccount(trx, accountId);
    await lockOwnFolders(trx, accountId, [folderId]);
    const messages = await lockMessages(trx, accountId, folderId, null);
    const purged = await purgeLocked(trx, accountId, folderId, messages);
    return { result: { ok: true, deleted: purged.deleted ? [purged.deleted] : [] }, events: purged.events };
  });
}
