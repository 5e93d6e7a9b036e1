import type { Folder } from '@mailroom/protocol';
import { isCollectorFolderName } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import type { Principal } from '../accounts/index.js';
import { scopeOf } from '../addresses/index.js';
import {
  listFolders,
  scopedFolderCounts,
  systemFolders,
  type FolderRow,
  type Scope,
} from '../mailbox/index.js';

const systemOrder = new Map(systemFolders.map((f, i) => [f.system, i]));

/** The namespace every folder lives under; its direct children are the top-level folders. */
const ROOT = 'INBOX';

/**
 * The folder tree. Names are dotted paths under the INBOX namespace (as with Dovecot's `INBOX.`
 * prefix), so INBOX.Sent and INBOX.Projects are top-level entries beside INBOX and
 * INBOX.Projects.2026 nests under Projects. System folders come first, in their fixed order.
 */
export async function getFolderTree(
  db: Db,
  accountId: number,
  scope: Scope = { kind: 'all' },
): Promise<Folder[]> {
  const rows = await listFolders(db, accountId);
  if (scope.kind === 'all') return buildFolderTree(rows);
  // A session held to one address counts only mail to that address.
  if (scope.kind === 'none')
    return buildFolderTree(
      rows.filter((row) => row.system).map((row) => ({ ...row, total_count: 0, unread_count: 0 })),
    );
  const counts = await scopedFolderCounts(db, accountId, scope);
  const scoped = rows.map((row) => ({
    ...row,
    total_count: counts.get(row.id)?.total ?? 0,
    unread_count: counts.get(row.id)?.unread ?? 0,
  }));
  return buildFolderTree(withinScope(scoped));
}

/**
 * What a session held to one address may see of the folder list: the system folders, and the
 * owner's folders that hold some of its mail, with their parents (for the path). The owner's
 * other folder names say nothing it may know.
 */
function withinScope(rows: FolderRow[]): FolderRow[] {
  const names = new Set<string>();
  for (const row of rows) {
    if (!row.system && row.total_count === 0) continue;
    for (let name: string | null = row.name; name && !names.has(name); name = parentOf(name)) names.add(name);
  }
  return rows.filter((row) => names.has(row.name));
}

/** The tree a principal sees: a session held to one address gets the counts of its own mail only. */
export async function folderTreeFor(
  db: Db,
  principal: Principal,
  junkRetentionDays?: number,
): Promise<Folder[]> {
  const tree = await getFolderTree(db, principal.accountId, await scopeOf(db, principal));
  // Junk says how long it keeps mail (its retention job removes what is older).
  if (junkRetentionDays)
    for (const folder of tree) if (folder.system === 'junk') folder.retention_days = junkRetentionDays;
  return tree;
}

export function buildFolderTree(rows: FolderRow[]): Folder[] {
  const byName = new Map<string, Folder>();
  const roots: Folder[] = [];
  const sorted = [...rows].sort(
    (a, b) => a.name.split('.').length - b.name.split('.').length || a.name.localeCompare(b.name),
  );
  for (const row of sorted) {
    const collector = isCollectorFolderName(row.name);
    const folder: Folder = {
      id: row.id,
      name: row.name,
      system: row.system,
      unread: row.unread_count,
      total: row.total_count,
      subfolders: [],
      isCollector: collector,
      isSubCollector: false,
    };
    byName.set(row.name, folder);
    const parentName = parentOf(row.name);
    const parent = parentName && parentName !== ROOT ? byName.get(parentName) : undefined;
    if (parent) {
      folder.isSubCollector = parent.isCollector || parent.isSubCollector;
      parent.subfolders.push(folder);
    } else {
      roots.push(folder);
    }
  }
  return roots.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

function rank(folder: Folder): number {
  if (folder.system) return systemOrder.get(folder.system) ?? 0;
  return folder.isCollector ? 200 : 100;
}

function parentOf(name: string): string | null {
  return name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : null;
}

function findInTree(folders: Folder[], id: number): Folder | undefined {
  for (const f of folders) {
    if (f.id === id) return f;
    const inner = findInTree(f.subfolders, id);
    if (inner) return inner;
  }
  return undefined;
}

/** A folder as the API shows it, with its subfolders. */
export async function getFolder(db: Db, accountId: number, folderId: number): Promise<Folder> {
  const folder = findInTree(await getFolderTree(db, accountId), folderId);
  if (!folder) throw new DomainError('entity_not_found');
  return folder;
}
