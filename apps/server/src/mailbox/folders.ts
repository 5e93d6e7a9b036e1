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
