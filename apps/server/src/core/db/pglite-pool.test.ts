import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { pglitePool } from './pglite-pool.js';

const pglite = await PGlite.create();
const db = new Kysely<never>({ dialect: new PostgresDialect({ pool: pglitePool(pglite, { maxNamed: 3 }) }) });
afterAll(() => db.destroy());

const named = async () =>
  (
    await sql<{
      name: string;
    }>`select name from pg_prepared_statements where name like 'mailroom_%' order by name`.execute(db)
  ).rows.map((r) => r.name);

describe('statements on PGlite', () => {
  it('a statement run again becomes a named one and answers as before, with the same types', async () => {
    const run = (n: number) =>
      sql<{
        n: number;
        at: Date;
        ids: number[];
        doc: unknown;
      }>`select ${n}::int + 1 as n, ${new Date(0)}::timestamptz as at,
        ${sql.val([1, 2])}::bigint[] as ids, ${JSON.stringify({ a: 'ё' })}::jsonb as doc`.execute(db);
    const first = await run(1);
    expect(await named()).toEqual([]);
    const second = await run(2);
    const third = await run(3);
    expect(await named()).toHaveLength(1);
    for (const [result, n] of [
      [first, 2],
      [second, 3],
      [third, 4],
    ] as const)
      expect(result.rows).toEqual([{ n, at: new Date(0), ids: [1, 2], doc: { a: 'ё' } }]);
  });

  it('a named statement reports errors with their code, and the next statement runs', async () => {
    await sql`create table uniq (v int primary key)`.execute(db);
    const insert = (v: number) => sql`insert into uniq values (${v})`.execute(db);
    await insert(1);
    await insert(2);
    await expect(insert(1)).rejects.toMatchObject({ code: '23505' });
    await expect(insert(2)).rejects.toMatchObject({ code: '23505' });
    await insert(3);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from uniq where v > ${0}`.execute(db);
    expect(rows).toEqual([{ n: 3 }]);
  });

  it('keeps at most the set number of named statements, closing the least recently used', async () => {
    const before = await named();
    for (let i = 0; i < 6; i++)
      for (let k = 0; k < 2; k++) {
        const { rows } = await sql<{ n: number }>`select ${k}::int + ${sql.lit(i)} as n`.execute(db);
        expect(rows).toEqual([{ n: k + i }]);
      }
    const after = await named();
    expect(after).toHaveLength(3);
    expect(after.filter((n) => before.includes(n))).toEqual([]);
  });
});
