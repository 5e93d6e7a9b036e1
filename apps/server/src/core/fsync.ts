import fs from 'node:fs/promises';
import path from 'node:path';

/** fsyncs one file or folder (a folder: so that what was created, renamed or removed in it stays so after a crash). */
export async function fsyncPath(p: string): Promise<void> {
  const handle = await fs.open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * fsyncs every file and folder under `dir` and `dir` itself: what PostgreSQL's initdb does at its end (PGlite's
 * initdb runs with fsync off), so that a new cluster is on disk before anything commits into it.
 */
export async function fsyncTree(dir: string): Promise<void> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  const folders = entries.filter((e) => e.isDirectory()).map((e) => path.join(e.parentPath, e.name));
  // Files before the folders that name them, deepest folders first; a few at a time (libuv has four threads).
  for (const group of [files, [...folders.sort((a, b) => b.length - a.length), dir]]) {
    for (let i = 0; i < group.length; i += 16) await Promise.all(group.slice(i, i + 16).map(fsyncPath));
  }
}
