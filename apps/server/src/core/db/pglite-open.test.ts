import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate, openDatabase } from './index.js';
import { sharedBuffersFor } from './pglite-open.js';
import { poolStats } from './pool-metrics.js';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-pglite-open-'));
afterAll(() => fs.rm(root, { recursive: true, force: true }));

/**
 * A cluster made as a first start makes one, for the tests about what it does once made: a copy of the slow tier's
 * (test/global-setup.ts; initdb is 9-20 s of a 2-core machine), or made here. The tests of creation make their own.
 */
async function existingCluster(dataDir: string): Promise<void> {
  const template = process.env.MAILROOM_TEST_PGLITE_FOLDER;
  // Made while the first files run: a file of its own when it is there (test/_server.ts waits for it).
  if (
    template &&
    (await fs.stat(template).then(
      () => true,
      () => false,
    ))
  )
    await fs.cp(template, dataDir, { recursive: true });
}

// PGlite only, as pglite-durability.test.ts: nothing here reads DATABASE_URL, so the PostgreSQL pass of the slow tier
// ran the same tests on the same embedded clusters again (45-50 s of its workers' time).
describe.skipIf(Boolean(process.env.DATABASE_URL))('embedded database in a data folder', () => {
  it(
    'is created on first open, runs with memory sized to it, and keeps its data when reopened',
    { timeout: 120_000 },
    async () => {
      const dataDir = path.join(root, 'data', 'pglite');
      let db = await openDatabase({ kind: 'pglite', dataDir });
      await migrate(db);
      await sql`create table kept (v text)`.execute(db);
      await sql`insert into kept values ('still here')`.execute(db);
      const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db);
      // A new, nearly empty database gets the least; an embedder's fixed size is taken as given.
      expect(rows[0]!.shared_buffers).toBe('16MB');
      const memory = await sql<{ name: string; setting: string; unit: string }>`
        select name, setting, unit from pg_settings
        where name in ('work_mem', 'temp_buffers', 'maintenance_work_mem', 'wal_buffers') order by name`.execute(
        db,
      );
      expect(memory.rows.map((r) => `${r.name}=${r.setting} × ${r.unit}`)).toEqual([
        'maintenance_work_mem=16384 × kB',
        'temp_buffers=512 × 8kB',
        'wal_buffers=64 × 8kB',
        'work_mem=4096 × kB',
      ]);
      const wal = await sql<{ max_wal_size: string }>`show max_wal_size`.execute(db);
      expect(wal.rows[0]!.max_wal_size).toBe('96MB');
      await db.destroy();

      db = await openDatabase({ kind: 'pglite', dataDir, sharedBuffersMb: 32 });
      const reopened = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(db);
      expect(reopened.rows[0]!.shared_buffers).toBe('32MB');
      const kept = await sql<{ v: string }>`select v from kept`.execute(db);
      expect(kept.rows).toEqual([{ v: 'still here' }]);
      await db.destroy();
    },
  );

  it(
    'keeps no write-ahead log a checkpoint no longer needs: the segments written before it are removed',
    { timeout: 120_000 },
    async () => {
      const dataDir = path.join(root, 'wal', 'pglite');
      await existingCluster(dataDir);
      const db = await openDatabase({ kind: 'pglite', dataDir });
      const segments = async () =>
        (await fs.readdir(path.join(dataDir, 'pg_wal'))).filter((name) => /^[0-9A-F]{24}$/.test(name)).length;
      await sql`create table filler (data bytea)`.execute(db);
      // ~40 MB of log in rows that do not compress: several segments.
      for (let i = 0; i < 40; i++)
        await sql`insert into filler select decode(string_agg(md5(random()::text), ''), 'hex')
          from generate_series(1, 65536)`.execute(db);
      expect(await segments()).toBeGreaterThanOrEqual(3);
      await sql`checkpoint`.execute(db);
      expect(await segments()).toBeLessThanOrEqual(3);
      // In 4 MB files, so what stays between checkpoints is a few MB, not 32.
      const { rows } = await sql<{ wal_segment_size: string }>`show wal_segment_size`.execute(db);
      expect(rows[0]!.wal_segment_size).toBe('4MB');
      const bytes = await Promise.all(
        (await fs.readdir(path.join(dataDir, 'pg_wal')))
          .filter((name) => /^[0-9A-F]{24}$/.test(name))
          .map(async (name) => (await fs.stat(path.join(dataDir, 'pg_wal', name))).size),
      );
      expect(bytes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(12 * 2 ** 20);
      await db.destroy();
    },
  );

  it(
    'commits made at once share the log syncs, which run off the event loop; each is answered after its sync',
    { timeout: 120_000 },
    async () => {
      const dataDir = path.join(root, 'group', 'pglite');
      await existingCluster(dataDir);
      let db = await openDatabase({ kind: 'pglite', dataDir });
      await sql`create table kept (v int)`.execute(db);
      const wal = () => poolStats(db)!.wal!;
      const before = wal();
      // Fifty deliveries at once, each a statement on its own (a commit each), as SMTP sessions store their messages.
      const answered: { v: number; syncs: number; commits: number; ordered: number }[] = [];
      await Promise.all(
        Array.from({ length: 50 }, (_, v) =>
          sql`insert into kept values (${v})`.execute(db).then(() => answered.push({ v, ...wal() })),
        ),
      );
      const after = wal();
      expect(after.commits - before.commits).toBeGreaterThanOrEqual(50);
      // Shared: far fewer syncs than commits.
      expect(after.syncs - before.syncs).toBeLessThan(25);
      // The inserts commit in the order they were asked for (the one connection is a queue): the v-th is answered only
      // once finished syncs have covered at least v + 1 commits (or a sync on the event loop covered them all).
      for (const a of answered)
        if (a.ordered === before.ordered) expect(a.commits - before.commits).toBeGreaterThanOrEqual(a.v + 1);

      // Transactions among statements on their own: the connection is handed on at a COMMIT, never inside one, and
      // a rolled-back transaction keeps nothing of its own while the others' rows stay.
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          i % 2
            ? db
                .transaction()
                .execute(async (trx) => {
                  await sql`insert into kept values (${1000 + i})`.execute(trx);
                  await sql`insert into kept values (${2000 + i})`.execute(trx);
                  if (i % 4 === 1) throw new Error('rolled back');
                })
                .catch((err: Error) => expect(err.message).toBe('rolled back'))
            : sql`insert into kept values (${3000 + i})`.execute(db),
        ),
      );
      await db.destroy();

      db = await openDatabase({ kind: 'pglite', dataDir });
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kept`.execute(db);
      // 50, then 5 on their own and 2 transactions of 2 rows kept (i = 3, 7), 3 rolled back (i = 1, 5, 9).
      expect(rows).toEqual([{ n: 59 }]);
      await db.destroy();
    },
  );

  it(
    'with PGLITE_GROUP_COMMIT=false each commit syncs on the event loop: nothing is deferred',
    { timeout: 120_000 },
    async () => {
      const dataDir = path.join(root, 'group', 'pglite');
      const db = await openDatabase({ kind: 'pglite', dataDir, groupCommit: false });
      await Promise.all(
        Array.from({ length: 10 }, (_, v) => sql`insert into kept values (${v})`.execute(db)),
      );
      expect(poolStats(db)!.wal).toBeUndefined();
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from kept`.execute(db);
      expect(rows).toEqual([{ n: 69 }]);
      await db.destroy();
    },
  );

  it(
    'takes no half-made cluster for a finished one: a start cut off during creation is begun again',
    {
      timeout: 120_000,
    },
    async () => {
      const dataDir = path.join(root, 'interrupted', 'pglite');
      // What a killed first start leaves: the staging folder with part of a cluster in it.
      await fs.mkdir(`${dataDir}.creating`, { recursive: true });
      await fs.writeFile(path.join(`${dataDir}.creating`, 'PG_VERSION'), '17\n');
      const db = await openDatabase({ kind: 'pglite', dataDir });
      await migrate(db);
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
      expect(rows).toEqual([{ one: 1 }]);
      await db.destroy();
      await expect(fs.access(`${dataDir}.creating`)).rejects.toThrow(/ENOENT/);
    },
  );

  it('sizes shared buffers to an eighth of the database, between 16 and 96 MB', () => {
    const MB = 1024 * 1024;
    expect(sharedBuffersFor(0)).toBe(16);
    expect(sharedBuffersFor(128 * MB)).toBe(16);
    expect(sharedBuffersFor(129 * MB)).toBe(32);
    expect(sharedBuffersFor(256 * MB)).toBe(32);
    expect(sharedBuffersFor(257 * MB)).toBe(64);
    expect(sharedBuffersFor(630 * MB)).toBe(96);
    expect(sharedBuffersFor(50_000 * MB)).toBe(96);
  });

  it('reports why when the cluster cannot be created', async () => {
    const blocked = path.join(root, 'a-file');
    await fs.writeFile(blocked, '');
    await expect(openDatabase({ kind: 'pglite', dataDir: path.join(blocked, 'pglite') })).rejects.toThrow(
      /Creating the embedded database|ENOTDIR|EEXIST/,
    );
  });
});
