import { parse, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import { isStalePlan, StatementCache } from './statement-cache.js';
import type { PoolStats } from './pool-metrics.js';

const { serialize } = protocol;
/** Named statements PGlite keeps at once (each holds its plan in WebAssembly memory). */
const MAX_NAMED = 200;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Runs parameterised statements on PGlite as named statements (see StatementCache): the first run
 * of a name parses it and asks for its parameter types; every run after that is one round into
 * WebAssembly (Bind, Describe, Execute, Sync) instead of PGlite's six for an unnamed statement,
 * and PostgreSQL's plan cache applies. Values are serialised as PGlite's own query() does.
 */
function namedStatements(pglite: PGlite, maxNamed: number) {
  const cache = new StatementCache(maxNamed);
  const parameterTypes = new Map<string, number[]>();
  const toClose: string[] = [];

  async function closeEvicted(): Promise<void> {
    if (!toClose.length) return;
    const names = toClose.splice(0);
    for (const name of names) parameterTypes.delete(name);
    await pglite.execProtocol(
      concat([...names.map((name) => serialize.close({ type: 'S', name })), serialize.sync()]),
      { throwOnError: false },
    );
  }

  async function prepare(name: string, text: string): Promise<number[]> {
    try {
      const { messages } = await pglite.execProtocol(
        concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      );
      const types = parse.parseDescribeStatementResults(messages);
      parameterTypes.set(name, types);
      return types;
    } catch (err) {
      cache.forget(text);
      throw err;
    }
  }

  /** The result, or undefined when this text is not (yet) worth a name. */
  return async function run<R>(text: string, values: unknown[]): Promise<Results<R> | undefined> {
    const name = cache.nameFor(text, (evicted) => toClose.push(evicted));
    if (!name) return undefined;
    return pglite.runExclusive(async () => {
      await closeEvicted();
      const types = parameterTypes.get(name) ?? (await prepare(name, text));
      const serialised = values.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[types[i]!];
        return serializer ? serializer(value) : String(value as string);
      });
      const outcome = await pglite
        .execProtocol(
          concat([
            serialize.bind({ statement: name, values: serialised }),
            serialize.describe({ type: 'P' }),
            serialize.execute({}),
            serialize.sync(),
          ]),
        )
        .catch((err: unknown) => {
          // The schema changed under it: close it, and let the caller run the text unnamed this time.
          if (!isStalePlan(err)) throw err;
          cache.forget(text);
          toClose.push(name);
          return undefined;
        });
      if (!outcome) return undefined;
      const { messages } = outcome;
      return (parse.parseResults(messages, pglite.parsers)[0] ?? { rows: [], fields: [] }) as Results<R>;
    });
  };
}

/**
 * Presents an embedded PGlite database as the pg-style pool Kysely's PostgresDialect expects.
 * PGlite has one connection, so a connection is a lock: a transaction holds it from BEGIN to
 * COMMIT and every other query waits its turn instead of landing inside someone else's transaction.
 * (kysely-pglite-dialect does this too but its peer range refuses PGlite 0.5.)
 *
 * With `durable` (the durable file layer's, pglite-durable.ts: its WAL syncs run off the event loop), a statement
 * that ends outside a transaction (a COMMIT, or a statement on its own) hands the connection on first and then
 * waits for `durable()` before its caller hears of it: the next transaction runs while this one's WAL is synced,
 * and the commits made meanwhile share the next sync (a group commit). A client that ran such a statement and runs
 * another takes the connection again, in turn.
 */
export function pglitePool(
  pglite: PGlite,
  options: {
    maxNamed?: number;
    durable?: () => Promise<void>;
    /** The durable file layer's counts, reported with the pool's (pool-metrics.ts). */
    walStats?: () => NonNullable<PoolStats['wal']>;
  } = {},
): PostgresPool & { stats(): PoolStats } {
  let tail: Promise<void> = Promise.resolve();
  // Callers that asked for the connection and have not released it: the one holding it and those queued behind.
  let asked = 0;
  const runNamed = namedStatements(pglite, options.maxNamed ?? MAX_NAMED);
  const durable = options.durable;

  /** Waits for the connection; the function returned hands it on (once). */
  async function take(): Promise<() => void> {
    let release!: () => void;
    const previous = tail;
    tail = new Promise<void>((resolve) => (release = resolve));
    asked++;
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      asked--;
      release();
    };
  }

  async function connect(): Promise<PostgresPoolClient> {
    let handOn: (() => void) | undefined = await take();
    let ended = false;
    return {
      async query<R>(sqlText: unknown, parameters?: readonly unknown[]): Promise<PostgresQueryResult<R>> {
        if (typeof sqlText !== 'string') throw new Error('PGlite pool: cursors are not supported');
        if (ended) throw new Error('PGlite pool: the client was released');
        handOn ??= await take();
        // Without parameters use the simple protocol, which (like pg) accepts several statements: migrations.
        const result = parameters?.length
          ? ((await runNamed<R>(sqlText, parameters as unknown[])) ??
            (await pglite.query<R>(sqlText, parameters as unknown[])))
          : (((await pglite.exec(sqlText)).at(-1) as Results<R> | undefined) ?? { rows: [], fields: [] });
        if (durable && !pglite.isInTransaction()) {
          handOn();
          handOn = undefined;
          await durable();
        }
        const verb = /^\s*(insert|update|delete|merge)\b/i.exec(sqlText)?.[1]?.toUpperCase();
        return {
          command: (verb ?? 'SELECT') as PostgresQueryResult<R>['command'],
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release() {
        ended = true;
        handOn?.();
        handOn = undefined;
      },
    } as PostgresPoolClient;
  }

  return {
    connect,
    stats: () => ({
      total: 1,
      idle: asked === 0 ? 1 : 0,
      waiting: Math.max(0, asked - 1),
      max: 1,
      ...(options.walStats ? { wal: options.walStats() } : {}),
    }),
    async end() {
      await tail;
      await pglite.close();
    },
  };
}
