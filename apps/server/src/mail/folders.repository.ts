import { sql } from 'kysely';
import type { Db, Trx } from '../core/db/index.js';
import type { FolderSystem } from '@mailroom/protocol';

export interface FolderRow {
  id: number;
  name: string;
  system: FolderSystem | null;
  unread_count: number;
  total_count: number;
}

export async function listFolders(db: Db, accountId: number): Promise<FolderRow[]> {
  return db
    .selectFrom('folders')
    .select(['id', 'name', 'system', 'unread_count', 'total_count'])
    .where('account_id', '=', accountId)
    .orderBy('name')
    .execute();
}

/** The caller's folder, row-locked for the rest of the transaction (renames and deletes serialise). */
export function lockFolder(trx: Trx, accountId: number, folderId: number) {
  return trx
    .selectFrom('folders')
    .select(['id', 'name', 'system'])
    .where('id', '=', folderId)
    .where('account_id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
}

/** Whether another folder of the account already has this name, compared without case. */
export async function folderNameTaken(db: Db, accountId: number, name: string, exceptId?: number) {
  const row = await db
    .selectFrom('folders')
    .select('id')
    .where('account_id', '=', accountId)
    // Both sides lowered by the database, so the check agrees with the unique index on lower(name).
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
  return row !== undefined;
}

/** `left(name, n+1) = prefix || '.'` rather than LIKE: names may hold `%` and `_`. */
/** Length as PostgreSQL's left()/substr() count it: characters (code points), not UTF-16 units. */
const chars = (s: string) => [...s].length;

const isUnder = (prefix: string) => sql<boolean>`left(name, ${chars(prefix) + 1}) = ${prefix + '.'}`;

/** A folder (by name, without case) and every folder under it, row-locked, the deepest first. */
export async function lockFolderTree(trx: Trx, accountId: number, name: string) {
  const rows = await trx
    .selectFrom('folders')
    .select(['id', 'name', 'system'])
    .where('account_id', '=', accountId)
    .where((eb) =>
      eb.or([
        sql<boolean>`lower(name) = lower(${name})`,
        sql<boolean>`lower(left(name, ${chars(name) + 1})) = lower(${name + '.'})`,
      ]),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.sort((a, b) => b.name.split('.').length - a.name.split('.').length);
}

export async function descendantNames(db: Db, accountId: number, name: string): Promise<string[]> {
  const rows = await db
    .selectFrom('folders')
    .select('name')
    .where('account_id', '=', accountId)
    .where(isUnder(name))
    .execute();
  return rows.map((r) => r.name);
}

/** Renames a folder and every folder under it; ids, UIDVALIDITY and UIDNEXT stay as they were. */
export async function renameFolderTree(db: Db, accountId: number, from: string, to: string): Promise<void> {
  await db
    .updateTable('folders')
    .set({ name: sql`${to} || substr(name, ${chars(from) + 1})` })
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('name', '=', from), isUnder(from)]))
    .execute();
}

/** Deletes a folder row whose messages are already gone (purged under the mailbox lock order). */
export async function deleteFolderRow(trx: Trx, accountId: number, folderId: number): Promise<void> {
  await trx.deleteFrom('folders').where('account_id', '=', accountId).where('id', '=', folderId).execute();
}
