import { sql } from 'kysely';
import type { FolderSystem } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { scopeCondition, type Scope } from './scope.js';

export interface FolderRef {
  id: number;
  name: string;
  system: FolderSystem | null;
}

/** The caller's folder, or entity_not_found: the account is part of the query, never checked after. */
export async function requireFolder(db: Db, accountId: number, folderId: number): Promise<FolderRef> {
  const folder = await db
    .selectFrom('folders')
    .select(['id', 'name', 'system'])
    .where('id', '=', folderId)
    .where('account_id', '=', accountId)
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
    .where('alias_id', scope.aliasId === null ? 'is not' : '=', scope.aliasId)
    .groupBy('folder_id')
    .execute();
  const counted = new Map(rows.map((r) => [r.folder_id, r]));
  return new Map(
    folders.map((f) => {
      const c = counted.get(f.id) ?? none;
      if (scope.aliasId !== null) return [f.id, { total: c.total, unread: c.unread }];
      return [
        f.id,
        {
          total: Math.max(0, f.total_count - c.total),
          unread: Math.max(0, f.unread_count - c.unread),
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
