/**
 * Embedded PGlite opened as the server's database: its start parameters, its extensions, the durable file layer.
 * Loaded by `openDatabase` (index.ts) with `import()` only when the database is PGlite, so a server on PostgreSQL
 * never loads PGlite's JavaScript or WebAssembly.
 */
import { Kysely, PostgresDialect } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pglitePool } from './pglite-pool.js';
import { registerPoolStats } from './pool-metrics.js';
import { createPgliteClusterIfMissing } from './pglite-initdb.js';
import { DurableNodeFS, durableStartParams } from './pglite-durable.js';
import type { Database } from './schema.js';

/** Extensions the migrations use; PGlite loads them explicitly. */
export const pgliteExtensions = { pg_trgm, btree_gin };

/**
 * PostgreSQL settings for the embedded database, on top of PGlite's own start parameters (which
 * are there for correctness: single user, no parallel workers, synchronous I/O). shared_buffers:
 * initdb picks PostgreSQL's 128 MB, which PGlite zero-fills inside its WebAssembly memory while
 * starting (so it is resident from the first second) and which pushes that memory past its 128 MB
 * minimum to 189 MB; WebAssembly memory is never given back. 96 MB keeps it at the minimum and
 * the idle server ~20 MB smaller, with search on the 100k corpus as fast as with 128 MB (each
 * buffer miss costs a file read and a copy into WebAssembly, and search's working set there is
 * 80–96 MB: with 64 MB the Russian-prefix query took 80 ms instead of 23; folder pages do not care).
 */
export const pgliteStartParams = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=96MB',
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

/** The embedded database in a data folder, or a PGlite instance already open (tests). */
export type PgliteSource =
  /** fsync: false starts PGlite as it comes (fsync off): a power cut may then lose committed rows. */
  | {
      kind: 'pglite';
      dataDir: string;
      fsync?: boolean;
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
    fs = fsync ? new DurableNodeFS(source.dataDir, { groupCommit: source.groupCommit ?? true }) : undefined;
    pglite = await PGlite.create({
      ...(fs ? { fs } : { dataDir: source.dataDir }),
      extensions: pgliteExtensions,
      startParams: durableStartParams(pgliteStartParams, fsync),
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
