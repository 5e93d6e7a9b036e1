import { sql } from 'kysely';
import type { FolderSystem } from '@mailroom/protocol';
import type { Db, Trx } from '../core/db/index.js';

/**
 * SQL of the mailbox store's row writes. Lock order, the same for every writer: the account row
 * first (as storeMessage takes it first to charge quota), then folder rows by id, then message
 * rows by id. Every function here takes a `Trx`: a lock outside a transaction would end at once.
 * The account row alone already serialises one account's actions: folder locks by id were not
 * enough on PostgreSQL (the 50-request test deadlocked through the row-lock wait queue), and
 * queueing one user's own clicks costs nothing a person notices. The folder and message locks
 * stay, so a writer that does not take the account row (a future IMAP session) still meets them.
 */

export interface LockedFolder {
  id: number;
  system: FolderSystem | null;
}

export interface LockedMessage {
  id: number;
  uid: number;
  seen: boolean;
  size: number;
}

/**
 * Locks the account row, first in every action. NO KEY UPDATE: it queues with storeMessage's
 * quota update and other actions but not with inserts that merely reference the account.
 */
export async function lockAccount(trx: Trx, accountId: number): Promise<void> {
  await trx.selectFrom('accounts').select('id').where('id', '=', accountId).forNoKeyUpdate().execute();
}

export async function folderSystems(db: Db, accountId: number, folderIds: number[]) {
  return db
    .selectFrom('folders')
    .select(['id', 'system'])
    .where('account_id', '=', accountId)
    .where('id', 'in', folderIds)
    .execute();
}

/** Locks the caller's folders among `folderIds`, in id order; others' ids are simply absent. */
export async function lockFolders(trx: Trx, accountId: number, folderIds: number[]): Promise<LockedFolder[]> {
  if (!folderIds.length) return [];
  return trx
    .selectFrom('folders')
    .select(['id', 'system'])
    .where('account_id', '=', accountId)
    .where('id', 'in', [...new Set(folderIds)])
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Locks the messages of a folder named by uid (all of them when `uids` is null), in id order. */
export async function lockMessages(
  trx: Trx,
  accountId: number,
  folderId: number,
  uids: number[] | null,
): Promise<LockedMessage[]> {
  return trx
    .selectFrom('messages')
    .select(['id', 'uid', 'seen', 'size'])
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .$if(uids !== null, (q) => q.where('uid', '=', sql<number>`any(${uids}::int[])`))
    .orderBy('id')
    .forUpdate()
    .execute();
}

export type FlagChange = 'seen' | 'unseen' | 'flagged' | 'unflagged';

/** Sets a flag on the rows that lack it; returns those that changed. */
export async function setFlag(trx: Trx, ids: number[], change: FlagChange) {
  const column = change === 'seen' || change === 'unseen' ? 'seen' : 'flagged';
  const value = change === 'seen' || change === 'flagged';
  return trx
    .updateTable('messages')
    .set({ [column]: value })
    .where('id', '=', sql<number>`any(${ids}::bigint[])`)
    .where(column, '=', !value)
    .returning(['uid', 'seen'])
    .execute();
}

/** Adds or removes a label keyword on the rows that lack or carry it; returns those that changed. */
export async function setLabel(trx: Trx, ids: number[], labelId: number, on: boolean) {
  return trx
    .updateTable('messages')
    .set({
      labels: on
        ? sql<number[]>`array_append(labels, ${labelId}::bigint)`
        : sql<number[]>`array_remove(labels, ${labelId}::bigint)`,
    })
    .where('id', '=', sql<number>`any(${ids}::bigint[])`)
    .where(
      on
        ? sql<boolean>`not labels @> array[${labelId}::bigint]`
        : sql<boolean>`labels @> array[${labelId}::bigint]`,
    )
    .returning(['uid'])
    .execute();
}

/** Takes `count` UIDs from the folder's UIDNEXT (the folder row is locked); returns the first. */
export async function allocateUids(trx: Trx, folderId: number, count: number): Promise<number> {
  const row = await trx
    .updateTable('folders')
    .set({ uidnext: sql`uidnext + ${count}` })
    .where('id', '=', folderId)
    .returning(sql<number>`uidnext - ${count}`.as('first'))
    .executeTakeFirstOrThrow();
  return Number(row.first);
}

/** Puts messages in `folderId` under new UIDs (ids[i] gets uids[i]); flags and labels stay. */
export async function relocateMessages(trx: Trx, folderId: number, ids: number[], uids: number[]) {
  await sql`
    update messages m set folder_id = ${folderId}, uid = v.uid
    from unnest(${ids}::bigint[], ${uids}::int[]) as v(id, uid)
    where m.id = v.id`.execute(trx);
}

export async function deleteMessageRows(trx: Trx, ids: number[]): Promise<void> {
  await trx
    .deleteFrom('messages')
    .where('id', '=', sql<number>`any(${ids}::bigint[])`)
    .execute();
}

/** Shifts a folder's counters by what an action did; returns the new values for updateMailbox. */
export async function adjustCounters(trx: Trx, folderId: number, total: number, unread: number) {
  return trx
    .updateTable('folders')
    .set({
      total_count: sql`total_count + ${total}`,
      unread_count: sql`unread_count + ${unread}`,
    })
    .where('id', '=', folderId)
    .returning(['unread_count', 'total_count'])
    .executeTakeFirstOrThrow();
}

export async function releaseQuota(trx: Trx, accountId: number, bytes: number): Promise<void> {
  if (bytes <= 0) return;
  await trx
    .updateTable('accounts')
    .set({ quota_used_bytes: sql`greatest(0, quota_used_bytes - ${bytes})` })
    .where('id', '=', accountId)
    .execute();
}

/** A folder's messages after a UID, in UID order, a batch at a time (a job working through a folder). */
export async function messagesAfterUid(
  db: Db,
  accountId: number,
  folderId: number,
  afterUid: number,
  limit: number,
) {
  return db
    .selectFrom('messages')
    .select(['id', 'uid', 'blob_hash', 'seen', 'flagged', 'labels'])
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .where('uid', '>', afterUid)
    .orderBy('uid')
    .limit(limit)
    .execute();
}

/** Where the account's messages named by id are now (their folder and UID) and their flags; gone ones are absent. */
export async function messagePlaces(db: Db, accountId: number, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('messages')
    .select(['id', 'folder_id', 'uid', 'seen', 'flagged', 'answered'])
    .where('account_id', '=', accountId)
    .where('id', '=', sql<number>`any(${ids}::bigint[])`)
    .execute();
}
