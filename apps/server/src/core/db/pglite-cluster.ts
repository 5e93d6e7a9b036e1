import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fsyncPath, fsyncTree } from '../fsync.js';
import { workerModule } from '../workers/index.js';

/**
 * Creates an embedded database cluster (initdb) in a short-lived child process when the folder
 * has none yet. PGlite runs initdb in a second complete PostgreSQL instance plus a copy of its
 * heap, all WebAssembly memory, which is never given back: done in the server itself, the first
 * start peaks near 800 MB and the server then idles ~100 MB above a restarted one for good. In a
 * child all of it ends with the child; the server opens the finished cluster as on any restart.
 * With `fsync` the finished cluster is fsynced before it is renamed into place (PGlite's initdb
 * writes with fsync off), so a power cut cannot leave a renamed cluster with files missing.
 */
export async function createPgliteClusterIfMissing(dataDir: string, fsync = true): Promise<void> {
  const exists = await fs.access(path.join(dataDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (exists) return;
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  // Built beside the folder and renamed into place when complete: a start cut off halfway (killed,
  // power cut) leaves no half-made cluster that the next start would take for a finished one.
  const staging = `${dataDir}.creating`;
  await fs.rm(staging, { recursive: true, force: true });
  // The child runs pglite-initdb, next to this module: TypeScript under tsx (development, tests), which the child
  // then needs too; next to the bundle's chunks in build/.
  const entry = fileURLToPath(workerModule(import.meta.url, 'pglite-initdb'));
  const args = entry.endsWith('.ts') ? ['--import', 'tsx', entry, staging] : [entry, staging];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0)
    throw new Error(`Creating the embedded database in ${dataDir} failed (exit ${code}): ${stderr}`);
  if (fsync) await fsyncTree(staging);
  // An empty folder made beforehand is replaced; one with other files in it is refused (ENOTEMPTY).
  await fs.rename(staging, dataDir);
  if (fsync) await fsyncPath(path.dirname(dataDir));
}

/**
 * initdb's options for a new cluster. `--wal-segsize=4`: the write-ahead log in 4 MB files instead of 16, so what
 * stays on disk between checkpoints (the segment the next recovery starts in and the one being written, with
 * `wal_recycle=off`) is ~8 MB instead of ~32: 5 % of a 100k mailbox's footprint. A cluster made before keeps its 16.
 */
export const pgliteInitdbParams = ['--wal-segsize=4'];
