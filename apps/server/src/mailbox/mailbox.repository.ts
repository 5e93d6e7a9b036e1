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

/** Locks several accounts' rows, in id order (a due claim's batch working for many accounts at once). */
export async function lockAccounts(trx: Trx, accountIds: number[]): Promise<void> {
  if (!accountIds.length) return;
  await sql`
    select id from accounts where id = any(${[...new Set(accountIds)]}::bigint[])
    order by id for no key update`.execute(trx);
}

/** Locks the system folders `systems` of several accounts (their rows locked first), in id order. */
export async function lockSystemFolders(
  trx: Trx,
  accountIds: number[],
  systems: FolderSystem[],
): Promise<{ id: number; account_id: number; system: FolderSystem }[]> {
  if (!accountIds.length) return [];
  const { rows } = await sql<{ id: string | number; account_id: string | number; system: FolderSystem }>`
    select id, account_id, system from folders
    where account_id = any(${[...new Set(accountIds)]}::bigint[]) and system = any(${systems}::text[])
    order by id for update`.execute(trx);
  return rows.map((r) => ({ id: Number(r.id), account_id: Number(r.account_id), system: r.system }));
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

/** Takes UIDs from several folders at once (their rows locked): the first of each folder's `count`, by folder id. */
export async function allocateUidsEach(
  trx: Trx,
  wanted: { folderId: number; count: number }[],
): Promise<Map<number, number>> {
  if (!wanted.length) return new Map();
  const { rows } = await sql<{ id: string | number; first: number }>`
    update folders f set uidnext = f.uidnext + v.n
    from unnest(${wanted.map((w) => w.folderId)}::bigint[], ${wanted.map((w) => w.count)}::int[]) as v(id, n)
    where f.id = v.id
    returning f.id, f.uidnext - v.n as first`.execute(trx);
  return new Map(rows.map((r) => [Number(r.id), Number(r.first)]));
}

/** Puts each message in its own folder under its new UID (flags and labels stay): relocateMessages across folders. */
export async function relocateEach(trx: Trx, moves: { id: number; folderId: number; uid: number }[]) {
  if (!moves.length) return;
  await sql`
    update messages m set folder_id = v.folder_id, uid = v.uid
    from unnest(${moves.map((x) => x.id)}::bigint[], ${moves.map((x) => x.folderId)}::bigint[],
      ${moves.map((x) => x.uid)}::int[]) as v(id, folder_id, uid)
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

/** adjustCounters for several folders in one statement; answers each folder's new values. */
export async function adjustCountersEach(
  trx: Trx,
  changes: { folderId: number; total: number; unread: number }[],
): Promise<Map<number, { unread_count: number; total_count: number }>> {
  if (!changes.length) return new Map();
  const { rows } = await sql<{ id: string | number; unread_count: number; total_count: number }>`
    update folders f set total_count = f.total_count + v.total, unread_count = f.unread_count + v.unread
    from unnest(${changes.map((c) => c.folderId)}::bigint[], ${changes.map((c) => c.total)}::int[],
      ${changes.map((c) => c.unread)}::int[]) as v(id, total, unread)
    where f.id = v.id
    returning f.id, f.unread_count, f.total_count`.execute(trx);
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { unread_count: Number(r.unread_count), total_count: Number(r.total_count) },
    ]),
  );
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
