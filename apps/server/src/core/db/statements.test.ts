import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './index.js';
import { pgliteExtensions } from './pglite-open.js';

// On the database the suite runs on: PostgreSQL when DATABASE_URL is set, else PGlite.
const url = process.env.DATABASE_URL;
const db: Db = url
  ? await openDatabase({ kind: 'postgres', url })
  : await openDatabase({
      kind: 'pglite-instance',
      pglite: await PGlite.create({ extensions: pgliteExtensions }),
    });
const table = `statements_${process.pid}_${Date.now()}`;
afterAll(async () => {
  await sql`drop table if exists ${sql.table(table)}`.execute(db);
  await db.destroy();
});

describe('named statements', () => {
  it('a statement prepared before the table changed still runs after it, seeing the new column', async () => {
    await sql`create table ${sql.table(table)} (v int)`.execute(db);
    await sql`insert into ${sql.table(table)} values (1), (2)`.execute(db);
    const read = () =>
      sql<Record<string, number>>`select * from ${sql.table(table)} where v > ${0} order by v`.execute(db);
    // Run it on every connection a pool may give, enough times to be named and planned generically.
    for (let i = 0; i < 8; i++) expect((await read()).rows).toEqual([{ v: 1 }, { v: 2 }]);
    await sql`alter table ${sql.table(table)} add column w int default 7`.execute(db);
    expect((await read()).rows).toEqual([
      { v: 1, w: 7 },
      { v: 2, w: 7 },
    ]);
    expect((await read()).rows).toEqual([
      { v: 1, w: 7 },
      { v: 2, w: 7 },
    ]);
  });

  it('the same statement with other values gives their rows (no value is cached with the plan)', async () => {
    const n = (k: number) =>
      sql<{ n: number }>`select count(*)::int as n from generate_series(1, ${k}) g`.execute(db);
    for (let k = 1; k <= 12; k++) expect((await n(k)).rows).toEqual([{ n: k }]);
  });
});
