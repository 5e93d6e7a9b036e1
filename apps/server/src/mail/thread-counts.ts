import type { Db } from '../core/db/index.js';
import type { Scope } from '../mailbox/index.js';

/**
 * How many chains a folder's list pages through, remembered per folder and view. Counting them is
 * a pass over the folder's index entries (distinct thread ids: ~20k entries at 20k messages, the
 * better part of the chains view's time on PGlite), while the answer only changes when the folder's
 * membership does, and a message's thread never changes. Membership changes always move the
 * folder's (uidnext, total_count): an arrival or a move in takes a new UID, and a removal lowers the
 * total without taking one, so no sequence of changes brings the pair back. A count is kept with the
 * pair it was taken at and used only while the folder still shows that pair; every process keeps
 * its own, checked against the row it has just read, so several processes stay correct.
 */
export interface FolderState {
  id: number;
  uidnext: number;
  total_count: number;
}

const MAX_ENTRIES = 10_000;
type Counts = Map<string, { uidnext: number; total: number; threads: number }>;
/** Per database: folder ids are only unique within one (a test process may open several). */
const countsByDatabase = new WeakMap<Db, Counts>();

const keyOf = (folderId: number, scope: Scope) =>
  scope.kind === 'address' ? `${folderId}:${scope.aliasId ?? 'main'}` : `${folderId}:${scope.kind}`;

export async function threadCount(
  db: Db,
  folder: FolderState,
  scope: Scope,
  count: () => Promise<number>,
): Promise<number> {
  let counts = countsByDatabase.get(db);
  if (!counts) countsByDatabase.set(db, (counts = new Map()));
  const key = keyOf(folder.id, scope);
  const known = counts.get(key);
  if (known && known.uidnext === folder.uidnext && known.total === folder.total_count) return known.threads;
  const threads = await count();
  // Oldest first out: a Map iterates in insertion order, and a refreshed entry moves to the end.
  counts.delete(key);
  if (counts.size >= MAX_ENTRIES) counts.delete(counts.keys().next().value!);
  counts.set(key, { uidnext: folder.uidnext, total: folder.total_count, threads });
  return threads;
}
