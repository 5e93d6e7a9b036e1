import type { Db } from '../db/index.js';
import type { FolderSystem } from '@mailroom/protocol';

export interface FolderRow {
  id: number;
  name: string;
  system: FolderSystem | null;
  unread_count: number;
  total_count: number;
}

export async function insertFolders(
  db: Db,
  accountId: number,
  folders: { name: string; system: FolderSystem | null }[],
): Promise<void> {
  // UIDVALIDITY: seconds since the epoch, as IMAP servers commonly do, so a re-created folder differs.
  const uidvalidity = Math.floor(Date.now() / 1000);
  await db
    .insertInto('folders')
    .values(folders.map((f) => ({ account_id: accountId, name: f.name, system: f.system, uidvalidity })))
    .execute();
}

export async function listFolders(db: Db, accountId: number): Promise<FolderRow[]> {
  return db
    .selectFrom('folders')
    .select(['id', 'name', 'system', 'unread_count', 'total_count'])
    .where('account_id', '=', accountId)
    .orderBy('name')
    .execute();
}
