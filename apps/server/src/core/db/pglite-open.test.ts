import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrate, openDatabase } from './index.js';
import { sharedBuffersFor } from './pglite-open.js';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-pglite-open-'));
afterAll(() => fs.rm(root, { recursive: true, force: true }));

describe('embedded database in a data folder', () => {
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

  it('sizes shared buffers to a quarter of the database, between 16 and 96 MB', () => {
    const MB = 1024 * 1024;
    expect(sharedBuffersFor(0)).toBe(16);
    expect(sharedBuffersFor(64 * MB)).toBe(16);
    expect(sharedBuffersFor(65 * MB)).toBe(32);
    expect(sharedBuffersFor(130 * MB)).toBe(64);
    expect(sharedBuffersFor(256 * MB)).toBe(64);
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
