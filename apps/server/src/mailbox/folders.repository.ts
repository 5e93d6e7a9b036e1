import { sql } from 'kysely';
import type { FolderSystem } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';

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
