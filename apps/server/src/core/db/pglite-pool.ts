import type { PGlite, Results } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents an embedded PGlite database as the pg-style pool Kysely's PostgresDialect expects.
 * PGlite has one connection, so a connection is a lock: a transaction holds it from BEGIN to
 * COMMIT and every other query waits its turn instead of landing inside someone else's transaction.
 * (kysely-pglite-dialect does this too but its peer range refuses PGlite 0.5.)
 */
export function pglitePool(pglite: PGlite): PostgresPool {
  let tail: Promise<void> = Promise.resolve();

  async function connect(): Promise<PostgresPoolClient> {
    let release!: () => void;
    const previous = tail;
    tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    let released = false;
    return {
      async query<R>(sqlText: unknown, parameters?: readonly unknown[]): Promise<PostgresQueryResult<R>> {
        if (typeof sqlText !== 'string') throw new Error('PGlite pool: cursors are not supported');
        // Without parameters use the simple protocol, which (like pg) accepts several statements: migrations.
        const result = parameters?.length
          ? await pglite.query<R>(sqlText, parameters as unknown[])
          : (((await pglite.exec(sqlText)).at(-1) as Results<R> | undefined) ?? { rows: [], fields: [] });
        const verb = /^\s*(insert|update|delete|merge)\b/i.exec(sqlText)?.[1]?.toUpperCase();
        return {
          command: (verb ?? 'SELECT') as PostgresQueryResult<R>['command'],
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release() {
        if (!released) {
          released = true;
          release();
        }
      },
    } as PostgresPoolClient;
  }

  return {
    connect,
    async end() {
      await tail;
      await pglite.close();
    },
  };
}
