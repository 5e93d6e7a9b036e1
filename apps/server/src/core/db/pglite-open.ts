/**
 * Embedded PGlite opened as the server's database: its start parameters, its extensions, the durable file layer.
 * Loaded by `openDatabase` (index.ts) with `import()` only when the database is PGlite, so a server on PostgreSQL
 * never loads PGlite's JavaScript or WebAssembly.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pglitePool } from './pglite-pool.js';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../metrics.js';
import { registerPoolStats } from './pool-metrics.js';
import { createPgliteClusterIfMissing } from './pglite-cluster.js';
import { DurableNodeFS, durableStartParams } from './pglite-durable.js';
import type { Database } from './schema.js';

/** Extensions the migrations use; PGlite loads them explicitly. */
export const pgliteExtensions = { pg_trgm, btree_gin };

/**
 * PostgreSQL's memory for the embedded database, on top of PGlite's own start parameters (which are there for
 * correctness: single user, no parallel workers, synchronous I/O). Everything PostgreSQL allocates lives in PGlite's
 * WebAssembly memory, which is never given back, so each setting is a floor on the server's RSS once used:
 * - shared_buffers: PGlite zero-fills them while starting, so they are resident from the first second. Sized to the
 *   database (`sharedBuffersFor`): PostgreSQL's 128 MB on an empty data folder was 117 MB of the idle server's RSS
 *   for no benefit; a 100k mailbox's search reads 80–96 MB of pages, and with 64 MB its Russian-prefix query took
 *   80 ms instead of 23 (each miss is a file read and a copy into WebAssembly; folder pages do not care).
 * - wal_buffers: 1/32 of shared_buffers (PostgreSQL's rule), never more than 4 MB.
 * - work_mem / temp_buffers / maintenance_work_mem: per sort, per temporary table, per vacuum or index build, taken
 *   only while used, but once taken the WebAssembly memory stays grown: maintenance at 16 MB instead of 64.
 */
export function pgliteStartParams(sharedBuffersMb: number): string[] {
  return [
    ...PGlite.defaultStartParams,
    '-c',
    `shared_buffers=${sharedBuffersMb}MB`,
    '-c',
    `wal_buffers=${Math.min(4096, Math.max(64, Math.floor((sharedBuffersMb * 1024) / 32)))}kB`,
    '-c',
    'work_mem=4MB',
    '-c',
    'temp_buffers=4MB',
    '-c',
    'maintenance_work_mem=16MB',
    // The write-ahead log kept between checkpoints (PostgreSQL's default allows 1 GB; a 20k fill left 256 MiB of it):
    // a checkpoint comes after about 50 MB of WAL (the upkeep pass takes one after 48 MB).
    '-c',
    'max_wal_size=96MB',
    '-c',
    'min_wal_size=32MB',
    // Segments a checkpoint no longer needs are removed, not kept for reuse: kept, they held the log at 81–97 MiB
    // on disk for good (a fifth of a 20k mailbox's footprint); removed, it is the segments written since the last
    // checkpoint, 17–65 MiB. A new segment is zero-filled once as it is created (16 MB written every 16 MB of log).
    '-c',
    'wal_recycle=off',
  ];
}

export const SHARED_BUFFERS_MIN_MB = 16;
export const SHARED_BUFFERS_MAX_MB = 96;

/**
 * shared_buffers for a database of `databaseBytes` on disk: an eighth of it rounded up to a power of two, between
 * 16 MB (an empty or small data folder) and 96 MB (the 100k mailbox's search working set; more pushes WebAssembly
 * memory past its 128 MB minimum). An eighth, not more: a 20k mailbox (167 MiB) filled and searched with 16 MB of
 * buffers answered its searches in 10–31 ms p50, as fast as with 64 MB (bench/RESULTS.md, session 20). Chosen at
 * each start, so a mailbox that has grown gets more at its next start.
 */
export function sharedBuffersFor(databaseBytes: number): number {
  const eighthMb = databaseBytes / 8 / (1024 * 1024);
  let mb = SHARED_BUFFERS_MIN_MB;
  while (mb < eighthMb && mb < SHARED_BUFFERS_MAX_MB) mb *= 2;
  return Math.min(mb, SHARED_BUFFERS_MAX_MB);
}

const sharedBuffersGauge = new Gauge({
  name: 'mailroom_pglite_shared_buffers_bytes',
  help: "Embedded PGlite's shared_buffers, chosen at start (PGLITE_SHARED_BUFFERS, or sized to the database)",
  registers: [metricsRegistry],
});

/** Bytes under a folder (the cluster's files), 0 when it does not exist yet. */
async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const info = await stat(path.join(entry.parentPath, entry.name)).catch(() => undefined);
    total += info?.size ?? 0;
  }
  return total;
}

/** The embedded database in a data folder, or a PGlite instance already open (tests). */
export type PgliteSource =
  /** fsync: false starts PGlite as it comes (fsync off): a power cut may then lose committed rows. */
  | {
      kind: 'pglite';
      dataDir: string;
      fsync?: boolean;
      /** shared_buffers in MB; undefined: sized to the database (`sharedBuffersFor`). */
      sharedBuffersMb?: number;
      /** false: each commit's WAL fdatasync runs on the event loop, one at a time (pglite-durable.ts). */
      groupCommit?: boolean;
    }
  | { kind: 'pglite-instance'; pglite: PGlite };

export async function openPglite(source: PgliteSource): Promise<Kysely<Database>> {
  let pglite: PGlite;
  let fs: DurableNodeFS | undefined;
  if (source.kind === 'pglite') {
    const fsync = source.fsync ?? true;
    await createPgliteClusterIfMissing(source.dataDir, fsync);
    const sharedBuffersMb =
      source.sharedBuffersMb ?? sharedBuffersFor(await folderBytes(path.join(source.dataDir, 'base')));
    sharedBuffersGauge.set(sharedBuffersMb * 1024 * 1024);
    fs = fsync ? new DurableNodeFS(source.dataDir, { groupCommit: source.groupCommit ?? true }) : undefined;
    pglite = await PGlite.create({
      ...(fs ? { fs } : { dataDir: source.dataDir }),
      extensions: pgliteExtensions,
      startParams: durableStartParams(pgliteStartParams(sharedBuffersMb), fsync),
    });
    if (fs && !fs.syncInstalled) {
      await pglite.close();
      throw new Error(
        'The embedded database could not install fsync (a PGlite update?); refusing to run without it',
      );
    }
  } else {
    pglite = source.pglite;
  }
  const durableFs = fs?.groupCommit ? fs : undefined;
  const pool = pglitePool(
    pglite,
    durableFs ? { durable: () => durableFs.durable(), walStats: () => ({ ...durableFs.groupStats }) } : {},
  );
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  registerPoolStats(db, pool.stats);
  return db;
}
