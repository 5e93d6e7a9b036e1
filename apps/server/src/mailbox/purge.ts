import type { FolderMessages, MailEvent } from '@mailroom/protocol';
import type { Trx } from '../core/db/index.js';
import { adjustCounters, deleteMessageRows, releaseQuota, type LockedMessage } from './mailbox.repository.js';

/** Shifts a folder's counters by what a change did and says so in the event clients count by. */
export async function counterEvent(
  trx: Trx,
  folderId: number,
  total: number,
  unread: number,
): Promise<MailEvent> {
  const counts = await adjustCounters(trx, folderId, total, unread);
  return {
    event: 'updateMailbox',
    folder_id: folderId,
    unseen: counts.unread_count,
    total: counts.total_count,
  };
}

export const unseenCount = (messages: LockedMessage[]) => messages.filter((m) => !m.seen).length;

/**
 * Removes messages this transaction has locked (account row, folder, messages: the mailbox lock
 * order) for good: rows gone, the folder's counters and the account's quota given back. Blobs stay:
 * they are content-addressed and may be shared. Returns what went and the events for after commit.
 */
export async function purgeLocked(
  trx: Trx,
  accountId: number,
  folderId: number,
  messages: LockedMessage[],
): Promise<{ deleted: FolderMessages | null; events: MailEvent[] }> {
  if (!messages.length) return { deleted: null, events: [] };
  await deleteMessageRows(
    trx,
    messages.map((m) => m.id),
  );
  await releaseQuota(
    trx,
    accountId,
    messages.reduce((sum, m) => sum + m.size, 0),
  );
  const uids = messages.map((m) => m.uid);
  const events: MailEvent[] = [
    { event: 'move', folder_id: folderId, to_folder_id: null, uids },
    await counterEvent(trx, folderId, -messages.length, -unseenCount(messages)),
  ];
  return { deleted: { folder_id: folderId, message_uids: uids }, events };
}

/** Messages named one by one, grouped by folder: each folder once, each uid once, in first-seen order. */
export function groupByFolder(rows: { folder_id: number; uid: number }[]): FolderMessages[] {
  const byFolder = new Map<number, Set<number>>();
  for (const row of rows) {
    const uids = byFolder.get(row.folder_id);
    if (uids) uids.add(row.uid);
    else byFolder.set(row.folder_id, new Set([row.uid]));
  }
  return [...byFolder].map(([folder_id, uids]) => ({ folder_id, message_uids: [...uids] }));
}

/** folder_messages as a client may send them (a folder twice, a uid twice) merged into one group a folder. */
export const mergeGroups = (groups: FolderMessages[]): FolderMessages[] =>
  groupByFolder(groups.flatMap((g) => g.message_uids.map((uid) => ({ folder_id: g.folder_id, uid }))));
