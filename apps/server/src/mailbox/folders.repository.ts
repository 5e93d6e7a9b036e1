import { sql } from 'kysely';
import type { FolderSystem } from '@mailroom/protocol';
import { type Db, ownRow, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { addressCount, aliasRowsCondition, scopeCondition, type Scope } from './scope.js';

export interface FolderRef {
  id: number;
  name: string;
  system: FolderSystem | null;
}

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
    .where(ownRow(folderId, accountId))
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Whether another folder (or label) of the account already has this name, compared without case; `exceptId` is the
 * one being renamed.
 */
export async function nameTaken(
  db: Db,
  table: 'folders' | 'labels',
  accountId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const row = await db
    .selectFrom(table)
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

/** The caller's folder, or entity_not_found: the account is part of the query, never checked after. */
export async function requireFolder(db: Db, accountId: number, folderId: number): Promise<FolderRef> {
  const folder = await db
    .selectFrom('folders')
    .select(['id', 'name', 'system'])
    .where(ownRow(folderId, accountId))
    .executeTakeFirst();
  if (!folder) throw new DomainError('entity_not_found');
  return folder;
}

export async function systemFolder(db: Db, accountId: number, system: FolderSystem): Promise<FolderRef> {
  const folder = await db
    .selectFrom('folders')
    .select(['id', 'name', 'system'])
    .where('account_id', '=', accountId)
    .where('system', '=', system)
    .executeTakeFirst();
  if (!folder) throw new DomainError('request_folder_not_found');
  return folder;
}

/**
 * UIDVALIDITY comes from one ever-growing sequence (migration 006): a folder re-created under a
 * deleted one's name must never get its UIDVALIDITY back, since its UIDs start again at 1.
 */
const nextUidvalidity = sql<number>`nextval('folder_uidvalidity_seq')::int`;

export async function insertFolders(
  db: Db,
  accountId: number,
  folders: { name: string; system: FolderSystem | null }[],
): Promise<number[]> {
  const rows = await db
    .insertInto('folders')
    .values(
      folders.map((f) => ({
        account_id: accountId,
        name: f.name,
        system: f.system,
        uidvalidity: nextUidvalidity,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The folders every mailbox starts with (SPEC §3), in the order the sidebar shows them. */
export const systemFolders: { name: string; system: FolderSystem }[] = [
  { name: 'INBOX', system: 'inbox' },
  { name: 'INBOX.Sent', system: 'sent' },
  { name: 'INBOX.Drafts', system: 'draft' },
  { name: 'INBOX.Trash', system: 'trash' },
  { name: 'INBOX.Junk', system: 'junk' },
  { name: 'INBOX.Scheduled', system: 'scheduled' },
  { name: 'INBOX.Snoozed', system: 'snoozed' },
];

export async function createSystemFolders(db: Db, accountId: number): Promise<void> {
  await insertFolders(db, accountId, systemFolders);
}

export interface FolderCounts {
  total: number;
  unread: number;
}

/**
 * Per-folder message and unread counts of the mail a scope sees (for a session held to one
 * address: its sidebar, its live counters). An alias reads the alias partial index; the primary
 * address (mail to no alias) is the folder's counters less the mail to any alias, so it never
 * scans the whole mailbox. `folderIds` limits it to those folders.
 */
export async function scopedFolderCounts(
  db: Db,
  accountId: number,
  scope: Scope,
  folderIds?: number[],
): Promise<Map<number, FolderCounts>> {
  if (folderIds && !folderIds.length) return new Map();
  const folders = await db
    .selectFrom('folders')
    .select(['id', 'unread_count', 'total_count'])
    .where('account_id', '=', accountId)
    .$if(folderIds !== undefined, (q) => q.where('id', 'in', folderIds!))
    .execute();
  if (scope.kind === 'all')
    return new Map(folders.map((f) => [f.id, { total: f.total_count, unread: f.unread_count }]));
  const none = { total: 0, unread: 0 };
  if (scope.kind === 'none') return new Map(folders.map((f) => [f.id, none]));
  const rows = await db
    .selectFrom('messages')
    .select([
      'folder_id',
      sql<number>`count(*)::int`.as('total'),
      sql<number>`(count(*) filter (where not seen))::int`.as('unread'),
    ])
    .where(
      'folder_id',
      'in',
      folders.map((f) => f.id),
    )
    .where('account_id', '=', accountId)
    .where(aliasRowsCondition(scope))
    .groupBy('folder_id')
    .execute();
  const counted = new Map(rows.map((r) => [r.folder_id, r]));
  return new Map(
    folders.map((f) => {
      const c = counted.get(f.id) ?? none;
      return [
        f.id,
        {
          total: addressCount(scope, f.total_count, c.total),
          unread: addressCount(scope, f.unread_count, c.unread),
        },
      ];
    }),
  );
}

/** The uids among `uids` of the folder whose messages the scope sees. */
export async function uidsInScope(
  db: Db,
  accountId: number,
  folderId: number,
  uids: number[],
  scope: Scope,
): Promise<number[]> {
  if (!uids.length || scope.kind === 'none') return [];
  if (scope.kind === 'all') return uids;
  const rows = await db
    .selectFrom('messages')
    .select('uid')
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .where('uid', 'in', uids)
    .where(scopeCondition(scope))
    .execute();
  const seen = new Set(rows.map((r) => r.uid));
  return uids.filter((uid) => seen.has(uid));
}
