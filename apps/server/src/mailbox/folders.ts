import type { FolderCreate, FolderUpdate } from '@mailroom/protocol';
import {
  COLLECTOR_NAMESPACE,
  FOLDER_DEPTH_MAX,
  collectorFolderSegment,
  folderNameProblem,
  isCollectorFolderName,
} from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import {
  deleteFolderRow,
  descendantNames,
  nameTaken,
  insertFolders,
  listFolders,
  lockFolder,
  lockFolderTree,
  renameFolderTree,
} from './folders.repository.js';
import { lockAccount, lockMessages } from './mailbox.repository.js';
import { purgeLocked } from './purge.js';

/**
 * The folder operations of the store (create, rename/move, delete, a path made on delivery or for a collector).
 * Names are dotted paths under the INBOX namespace, as with Dovecot's `INBOX.` prefix.
 */

/** The namespace every folder lives under; its direct children are the top-level folders. */
const ROOT = 'INBOX';
/** Where collectors' folders are (SPEC §3: a name containing `.import.`). */
const COLLECTOR_ROOT = `${ROOT}.${COLLECTOR_NAMESPACE}`;

function parentOf(name: string): string | null {
  return name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : null;
}

const depthOf = (name: string) => name.split('.').length - 1;

function validName(name: string): string {
  const problem = folderNameProblem(name);
  if (problem) throw new DomainError(problem);
  return name.trim();
}

/**
 * The path new children of `parentId` get as prefix. No parent, or the Inbox itself, means the
 * top level: in this namespace the Inbox's children are the top-level folders.
 */
async function parentPath(trx: Trx, accountId: number, parentId: number | null): Promise<string> {
  if (parentId === null) return ROOT;
  const parent = await lockFolder(trx, accountId, parentId);
  if (!parent) throw new DomainError('folder_parent_wrong');
  return parent.system === 'inbox' ? ROOT : parent.name;
}

/**
 * `import` at the top level is the collectors' namespace (SPEC §3: a name containing `.import.`
 * is a collector folder): a user folder there would pass for one.
 */
function refuseCollectorNamespace(path: string, segment: string) {
  if (path === ROOT && segment.toLowerCase() === 'import') throw new DomainError('forbidden');
}

export async function createFolder(
  db: Db,
  accountId: number,
  input: FolderCreate['folder'],
): Promise<number> {
  const segment = validName(input.name);
  try {
    return await transact(db, async (trx) => {
      const prefix = await parentPath(trx, accountId, input.parent_id);
      refuseCollectorNamespace(prefix, segment);
      const name = `${prefix}.${segment}`;
      if (depthOf(name) > FOLDER_DEPTH_MAX) throw new DomainError('folder_name_invalid');
      if (await nameTaken(trx, 'folders', accountId, name)) throw new DomainError('folder_already_exist');
      const [id] = await insertFolders(trx, accountId, [{ name, system: null }]);
      return id!;
    });
  } catch (err) {
    // Two creations racing past the check: the unique index decides.
    if (isUniqueViolation(err)) throw new DomainError('folder_already_exist');
    throw err;
  }
}

/** Renames and/or moves a folder; its subfolders move with it. Returns whether anything changed. */
export async function updateFolder(
  db: Db,
  accountId: number,
  folderId: number,
  input: FolderUpdate['folder'],
): Promise<boolean> {
  const segment = input.name === undefined ? undefined : validName(input.name);
  try {
    return await transact(db, async (trx) => {
      const folder = await lockFolder(trx, accountId, folderId);
      if (!folder) throw new DomainError('entity_not_found');
      if (folder.system) throw new DomainError('forbidden');
      let prefix = parentOf(folder.name) ?? ROOT;
      if (input.parent_id !== undefined) {
        if (input.parent_id === folder.id) throw new DomainError('folder_parent_wrong');
        prefix = await parentPath(trx, accountId, input.parent_id);
        // Into itself or one of its own subfolders would make a cycle.
        if (prefix === folder.name || prefix.startsWith(`${folder.name}.`))
          throw new DomainError('folder_parent_wrong');
      }
      const newSegment = segment ?? folder.name.slice(folder.name.lastIndexOf('.') + 1);
      refuseCollectorNamespace(prefix, newSegment);
      const name = `${prefix}.${newSegment}`;
      if (name === folder.name) return false;
      const deepest = Math.max(0, ...(await descendantNames(trx, accountId, folder.name)).map(depthOf));
      if (depthOf(name) + Math.max(0, deepest - depthOf(folder.name)) > FOLDER_DEPTH_MAX)
        throw new DomainError('folder_name_invalid');
      if (await nameTaken(trx, 'folders', accountId, name, folder.id))
        throw new DomainError('folder_already_exist');
      await renameFolderTree(trx, accountId, folder.name, name);
      return true;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('folder_already_exist');
    throw err;
  }
}

/**
 * Deletes a folder without subfolders, with its messages, and gives their bytes back to the
 * quota. Locks in the mailbox order (account row, then the folder, then its messages) like every
 * other writer: taking the folder first deadlocked against a move into it on PostgreSQL.
 */
export async function deleteFolder(db: Db, accountId: number, folderId: number): Promise<void> {
  await transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    const folder = await lockFolder(trx, accountId, folderId);
    if (!folder) throw new DomainError('entity_not_found');
    if (folder.system) throw new DomainError('forbidden');
    if ((await descendantNames(trx, accountId, folder.name)).length)
      throw new DomainError('folder_children_exist');
    await purgeLocked(trx, accountId, folder.id, await lockMessages(trx, accountId, folder.id, null));
    await deleteFolderRow(trx, accountId, folder.id);
  });
}

/**
 * A dotted folder path made from names of elsewhere (a remote IMAP folder, an archive's folders): `prefix`, then one
 * segment per name (collectorFolderSegment), names deeper than folders may go joined into the last one with a slash
 * (which the segment shows as ∕). Pure.
 */
export function nestedFolderPath(prefix: string, parts: string[]): string {
  const room = FOLDER_DEPTH_MAX - (prefix.split('.').length - 1);
  const kept = parts.length > room ? [...parts.slice(0, room - 1), parts.slice(room - 1).join('/')] : parts;
  return [prefix, ...kept.map(collectorFolderSegment)].join('.');
}

/**
 * The folder at a dotted path under the INBOX namespace (`INBOX.Work.Invoices`), created with any missing parents
 * (Sieve's `fileinto :create`); each new segment is checked as a created folder's name is. Returns its id and
 * whether anything was created (the folder list then changed). Folder names compare without case, as the unique
 * index does; two deliveries creating the same path at once meet the index, and the second reads the first's.
 */
export async function ensureFolderPath(
  db: Db,
  accountId: number,
  path: string,
): Promise<{ id: number; created: boolean }> {
  return ensurePath(db, accountId, path, false);
}

/**
 * A collector's folder (`INBOX.import.<address>`, and the remote folders below it), created with any missing parents
 * (but `INBOX.import` itself, which stays no folder) by ensureFolderPath's rules, in the collectors' namespace that folder creation refuses to everyone else (collectors/
 * only; SPEC §3). Inside the caller's transaction when `db` is one.
 */
export async function ensureCollectorFolderPath(
  db: Db,
  accountId: number,
  path: string,
): Promise<{ id: number; created: boolean }> {
  if (!isCollectorFolderName(path) || !path.startsWith(`${COLLECTOR_ROOT}.`))
    throw new DomainError('folder_name_invalid');
  return ensurePath(db, accountId, path, true);
}

/**
 * Deletes a folder and every folder under it, with their messages, giving their bytes back to the quota (a deleted
 * collector's folders, when its mail is not kept). Locks in the mailbox order: the account row, the folders, their
 * messages. A system folder is never deleted (forbidden). Answers how many folders went (0 when there was none).
 */
export async function deleteFolderTree(db: Db, accountId: number, path: string): Promise<number> {
  return transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    const folders = await lockFolderTree(trx, accountId, path);
    if (folders.some((f) => f.system)) throw new DomainError('forbidden');
    for (const folder of folders) {
      await purgeLocked(trx, accountId, folder.id, await lockMessages(trx, accountId, folder.id, null));
      await deleteFolderRow(trx, accountId, folder.id);
    }
    return folders.length;
  });
}

async function ensurePath(
  db: Db,
  accountId: number,
  path: string,
  collectors: boolean,
): Promise<{ id: number; created: boolean }> {
  if (!path.startsWith(`${ROOT}.`)) throw new DomainError('folder_name_invalid');
  const segments = path.slice(ROOT.length + 1).split('.');
  if (segments.length > FOLDER_DEPTH_MAX) throw new DomainError('folder_name_invalid');
  segments.forEach((segment) => validName(segment));
  if (!collectors) refuseCollectorNamespace(ROOT, segments[0]!.trim());
  const attempt = () =>
    transact(db, async (trx) => {
      const existing = new Map((await listFolders(trx, accountId)).map((f) => [f.name.toLowerCase(), f.id]));
      let name = ROOT;
      let id = existing.get(ROOT.toLowerCase())!;
      let created = false;
      for (const segment of segments) {
        name = `${name}.${segment.trim()}`;
        const found = existing.get(name.toLowerCase());
        // The collectors' namespace is no folder of its own: each collector's folder stands at the top of the tree.
        if (collectors && name.toLowerCase() === COLLECTOR_ROOT.toLowerCase()) continue;
        if (found !== undefined) id = found;
        else {
          [id] = (await insertFolders(trx, accountId, [{ name, system: null }])) as [number];
          created = true;
        }
      }
      return { id, created };
    });
  try {
    return await attempt();
  } catch (err) {
    // Inside a caller's transaction the failed statement has aborted it: the caller decides.
    if (!isUniqueViolation(err) || db.isTransaction) throw err;
    return attempt();
  }
}
