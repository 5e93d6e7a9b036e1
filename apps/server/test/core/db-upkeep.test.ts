import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../_util.js';
import {
  checkpointIfDue,
  tableActivity,
  upkeepDatabase,
  upkeepFor,
  upkeepWanted,
  walSinceCheckpoint,
} from '../../src/core/db/upkeep.js';

describe('upkeepFor: the autovacuum rules of PostgreSQL with its defaults', () => {
  const quiet = { table: 't', live: 10_000, dead: 0, modifiedSinceAnalyze: 0, insertedSinceVacuum: 0 };
  it('vacuums after many dead rows or many inserts, analyses after many changes, else leaves the table', () => {
    expect(upkeepFor(quiet)).toBeNull();
    expect(upkeepFor({ ...quiet, dead: 2_051 })).toBe('vacuum');
    expect(upkeepFor({ ...quiet, insertedSinceVacuum: 3_001 })).toBe('vacuum');
    expect(upkeepFor({ ...quiet, modifiedSinceAnalyze: 1_051 })).toBe('analyze');
    expect(upkeepFor({ ...quiet, modifiedSinceAnalyze: 1_050, dead: 2_050 })).toBeNull();
    // A fresh table filled at once: vacuumed (visibility map, GIN pending list) and analysed.
    expect(upkeepFor({ ...quiet, live: 0, insertedSinceVacuum: 1_001, modifiedSinceAnalyze: 1_001 })).toBe(
      'vacuum',
    );
  });
});

const db = await createTestDb();
const onPostgres = Boolean(process.env.DATABASE_URL);
const { rows: setting } = await sql<{
  autovacuum: string;
}>`select current_setting('autovacuum') as autovacuum`.execute(db);
const autovacuumRuns = onPostgres && setting[0]!.autovacuum === 'on';

describe('whether the server does the upkeep itself', () => {
  it('always on embedded PGlite; on PostgreSQL when its autovacuum is off', async () => {
    expect(await upkeepWanted(db, true)).toBe(true);
    if (onPostgres) expect(await upkeepWanted(db, false)).toBe(!autovacuumRuns);
  });
});

// Where the server runs the pass (a running autovacuum would race this test).
describe.skipIf(autovacuumRuns)('a pass of upkeep', () => {
  it('after a bulk fill: statistics present, the GIN pending list drained, and the next pass has nothing to do', async () => {
    await sql`create table bulk_fill (id serial primary key, body text)`.execute(db);
    await sql`create index bulk_fill_words on bulk_fill using gin (to_tsvector('simple', body)) with (fastupdate = on)`.execute(
      db,
    );
    for (let i = 0; i < 5; i++)
      await sql`insert into bulk_fill (body) select 'kestrel report ' || g from generate_series(1, 1000) g`.execute(
        db,
      );
    const before = (await tableActivity(db)).find((t) => t.table === 'bulk_fill')!;
    expect(before.insertedSinceVacuum).toBe(5_000);

    const done = await upkeepDatabase(db);
    expect(done).toContainEqual({ table: 'bulk_fill', upkeep: 'vacuum' });
    const { rows } = await sql<{ analysed: boolean; vacuumed: boolean; stats: number }>`
      select last_analyze is not null as analysed, last_vacuum is not null as vacuumed,
             (select count(*)::int from pg_stats where tablename = 'bulk_fill') as stats
        from pg_stat_user_tables where relname = 'bulk_fill'`.execute(db);
    expect(rows[0]).toEqual({ analysed: true, vacuumed: true, stats: 2 });
    // Nothing left in the pending list: cleaning it now moves no page.
    const { rows: pending } = await sql<{ pages: string }>`
      select gin_clean_pending_list('bulk_fill_words'::regclass) as pages`.execute(db);
    expect(Number(pending[0]!.pages)).toBe(0);
    expect((await upkeepDatabase(db)).map((d) => d.table)).not.toContain('bulk_fill');
  });
});

describe('checkpoints where no checkpointer runs', () => {
  it('a checkpoint is taken once enough write-ahead log was written since the last, and only then', async () => {
    await sql`create table wal_fill (body text)`.execute(db);
    await sql`insert into wal_fill select repeat('x', 1000) from generate_series(1, 2000)`.execute(db);
    const written = await walSinceCheckpoint(db);
    expect(written).toBeGreaterThan(1_000_000);
    expect(await checkpointIfDue(db, { afterBytes: written * 100, afterSeconds: Infinity })).toBe(false);
    expect(await walSinceCheckpoint(db)).toBeGreaterThanOrEqual(written);
    // The checkpoint's redo point is past everything written before it. (Not "little WAL since": on PostgreSQL the
    // log is the whole server's, and the other test files beside this one write to it meanwhile.)
    const { rows: before } = await sql<{
      lsn: string;
    }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(db);
    expect(await checkpointIfDue(db, { afterBytes: 1_000_000, afterSeconds: Infinity })).toBe(true);
    const { rows: after } = await sql<{ past: boolean }>`
      select redo_lsn >= ${before[0]!.lsn}::pg_lsn as past from pg_control_checkpoint()`.execute(db);
    expect(after[0]!.past).toBe(true);
  });

  it('a quiet database gets a checkpoint once its last is old and log was written since, as checkpoint_timeout does', async () => {
    await sql`insert into wal_fill select repeat('y', 1000) from generate_series(1, 2000)`.execute(db);
    const written = await walSinceCheckpoint(db);
    // Not yet old enough: nothing.
    expect(await checkpointIfDue(db, { afterBytes: written * 100, afterSeconds: 3600 })).toBe(false);
    const { rows: before } = await sql<{
      lsn: string;
    }>`select pg_current_wal_insert_lsn()::text as lsn`.execute(db);
    expect(await checkpointIfDue(db, { afterBytes: written * 100, afterSeconds: 0 })).toBe(true);
    // Proved by its redo point, as above: on PostgreSQL the other test files write to the server's log meanwhile
    // (CI saw 2.3 MB "since" right after this checkpoint).
    const { rows: after } = await sql<{ past: boolean }>`
      select redo_lsn >= ${before[0]!.lsn}::pg_lsn as past from pg_control_checkpoint()`.execute(db);
    expect(after[0]!.past).toBe(true);
    // Right after it, with nothing written, none is taken however old — where the log is this database's alone.
    if (!process.env.DATABASE_URL)
      expect(await checkpointIfDue(db, { afterBytes: written * 100, afterSeconds: 0 })).toBe(false);
  });
});
