import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** What the statistics say a table went through since it was last vacuumed and analysed. */
export interface TableActivity {
  table: string;
  live: number;
  dead: number;
  modifiedSinceAnalyze: number;
  insertedSinceVacuum: number;
}

export type Upkeep = 'vacuum' | 'analyze';

/**
 * PostgreSQL's autovacuum rules with their default settings (autovacuum_vacuum_threshold 50 and scale factor 0.2,
 * the insert threshold 1000 and scale 0.2, autovacuum_analyze_threshold 50 and scale 0.1): a vacuum clears dead
 * rows, sets the visibility map that index-only scans need and drains GIN pending lists; an analyse refreshes the
 * planner's statistics. A vacuum analyses too.
 */
export function upkeepFor(t: TableActivity): Upkeep | null {
  if (t.dead > 50 + 0.2 * t.live || t.insertedSinceVacuum > 1000 + 0.2 * t.live) return 'vacuum';
  if (t.modifiedSinceAnalyze > 50 + 0.1 * t.live) return 'analyze';
  return null;
}

/**
 * Whether the server must do autovacuum's work itself: always on embedded PGlite, which has no autovacuum, and on a
 * PostgreSQL server whose autovacuum is turned off (as on some development and CI machines: a filled mailbox then
 * keeps empty statistics, and a folder page took 29 ms instead of 4 at 20k messages).
 */
export async function upkeepWanted(db: Db, embedded: boolean): Promise<boolean> {
  if (embedded) return true;
  const { rows } = await sql<{ on: boolean }>`select current_setting('autovacuum') = 'on' as on`.execute(db);
  return !rows[0]?.on;
}

/** The activity of every table of ours, with the statistics of the work just done included. */
export async function tableActivity(db: Db): Promise<TableActivity[]> {
  // Statistics reach the shared counters at most once a second, at the end of a transaction; this asks the next
  // one to report at once, so a pass right after a bulk change sees it.
  await sql`select pg_stat_force_next_flush()`.execute(db);
  await sql`select pg_stat_clear_snapshot()`.execute(db);
  const { rows } = await sql<{
    table: string;
    live: string;
    dead: string;
    modified: string;
    inserted: string;
  }>`select relname as "table", n_live_tup as live, n_dead_tup as dead,
            n_mod_since_analyze as modified, n_ins_since_vacuum as inserted
       from pg_stat_user_tables where schemaname = 'public' order by relname`.execute(db);
  return rows.map((r) => ({
    table: r.table,
    live: Number(r.live),
    dead: Number(r.dead),
    modifiedSinceAnalyze: Number(r.modified),
    insertedSinceVacuum: Number(r.inserted),
  }));
}

/**
 * One pass of what autovacuum would do, table by table (each statement is short; a request waits for one table at
 * most). For embedded PGlite, which has no autovacuum: without it a filled mailbox is planned from empty statistics
 * and index-only scans never see the visibility map (#13: the Inbox page took 150 ms at 100k messages instead of
 * 15). PostgreSQL does this itself.
 */
export async function upkeepDatabase(db: Db): Promise<{ table: string; upkeep: Upkeep }[]> {
  const done: { table: string; upkeep: Upkeep }[] = [];
  for (const activity of await tableActivity(db)) {
    const upkeep = upkeepFor(activity);
    if (!upkeep) continue;
    const table = sql.id(activity.table);
    if (upkeep === 'vacuum') await sql`vacuum (analyze) ${table}`.execute(db);
    else await sql`analyze ${table}`.execute(db);
    done.push({ table: activity.table, upkeep });
  }
  return done;
}

/** Write-ahead log written since the last checkpoint's redo point, in bytes. */
export async function walSinceCheckpoint(db: Db): Promise<number> {
  const { rows } = await sql<{ bytes: string }>`
    select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn) as bytes from pg_control_checkpoint()`.execute(
    db,
  );
  return Number(rows[0]!.bytes);
}

/** WAL after which embedded PGlite takes a checkpoint (PostgreSQL's own checkpointer would at ~max_wal_size / 2). */
export const CHECKPOINT_AFTER_WAL_BYTES = 48 * 2 ** 20;
/** Age after which a checkpoint is taken once anything was written (PostgreSQL's checkpoint_timeout, 5 minutes). */
export const CHECKPOINT_AFTER_SECONDS = 300;
/** Below this the log since the last checkpoint is its own record and the like: nothing to write. */
const CHECKPOINT_MIN_WAL_BYTES = 2 ** 20;

/**
 * A checkpoint when enough WAL was written since the last one, or when the last is older than `afterSeconds` and
 * anything was written since. PostgreSQL in single-user mode, which PGlite is, has no checkpointer: nothing but a
 * shutdown or a CHECKPOINT statement ever takes one, so max_wal_size bounds nothing, the log only grows (1.2 GiB
 * after a 100k fill) and a restart after a crash would replay all of it. A checkpoint writes the dirty pages
 * (fsynced) and removes the log files before its redo point (`wal_recycle=off`), so a server gone quiet keeps ~2
 * log files, not the up to 48 MB written since the last size-based one; it holds the database while it runs
 * (~0.2 s after 1,000 deliveries).
 */
export async function checkpointIfDue(
  db: Db,
  due: { afterBytes?: number; afterSeconds?: number } = {},
): Promise<boolean> {
  const { afterBytes = CHECKPOINT_AFTER_WAL_BYTES, afterSeconds = CHECKPOINT_AFTER_SECONDS } = due;
  const { rows } = await sql<{ bytes: string; age: string }>`
    select pg_wal_lsn_diff(pg_current_wal_insert_lsn(), redo_lsn) as bytes,
      extract(epoch from now() - checkpoint_time) as age
    from pg_control_checkpoint()`.execute(db);
  const bytes = Number(rows[0]!.bytes);
  const age = Number(rows[0]!.age);
  if (bytes < afterBytes && !(bytes >= CHECKPOINT_MIN_WAL_BYTES && age >= afterSeconds)) return false;
  await sql`checkpoint`.execute(db);
  return true;
}
