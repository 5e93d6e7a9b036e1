import type { Folder, FolderSystem } from '@mailroom/protocol';
import { isCollectorFolderName } from '@mailroom/protocol';
import type { Db } from '../db/index.js';
import { insertFolders, listFolders, type FolderRow } from './folders.repository.js';

/** The folders every mailbox starts with (SPEC §3), in the order the sidebar shows them. */
export const systemFolders: { name: string; system: FolderSystem }[] = [
  { name: 'INBOX', system: 'inbox' },
  { name: 'INBOX.Sent', system: 'sent' },
  { name: 'INBOX.Drafts', system: 'draft' },
  { name: 'INBOX.Trash', system: 'trash' },
  { name: 'INBOX.Junk', system: 'junk' },
];
const systemOrder = new Map(systemFolders.map((f, i) => [f.system, i]));

export async function createSystemFolders(db: Db, accountId: number): Promise<void> {
  await insertFolders(db, accountId, systemFolders);
}

/**
 * The folder tree. Names are dotted paths under the INBOX namespace (as with Dovecot's `INBOX.`
 * prefix), so INBOX.Sent and INBOX.Projects are top-level entries beside INBOX and
 * INBOX.Projects.2026 nests under Projects. System folders come first, in their fixed order.
 */
export async function getFolderTree(db: Db, accountId: number): Promise<Folder[]> {
  return buildFolderTree(await listFolders(db, accountId));
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
    const parentName = row.name.includes('.') ? row.name.slice(0, row.name.lastIndexOf('.')) : null;
    const parent = parentName && parentName !== 'INBOX' ? byName.get(parentName) : undefined;
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
