import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config.js';
import type { PgliteSource } from './pglite-open.js';
import { isStalePlan, StatementCache } from './statement-cache.js';
import { measurePool, registerPoolStats } from './pool-metrics.js';
import type { Database } from './schema.js';
import * as m001 from './migrations/001-foundation.js';
import * as m002 from './migrations/002-idp-store.js';
import * as m003 from './migrations/003-mail-store.js';
import * as m005 from './migrations/005-delivery.js';
import * as m006 from './migrations/006-folders-and-lists.js';
import * as m007 from './migrations/007-search.js';
import * as m009 from './migrations/009-encrypted-messages.js';
import * as m008 from './migrations/008-sending.js';
import * as m010 from './migrations/010-search-field-lexemes.js';
import * as m011 from './migrations/011-shared-state.js';
import * as m012 from './migrations/012-jobs.js';
import * as m013 from './migrations/013-session-id-token.js';
import * as m014 from './migrations/014-principal-uploads-and-sign-in-throttles.js';
import * as m015 from './migrations/015-unique-label-names.js';
import * as m016 from './migrations/016-filters.js';
import * as m018 from './migrations/018-blobs.js';
import * as m019 from './migrations/019-contacts.js';
import * as m020 from './migrations/020-wallet.js';
import * as m021 from './migrations/021-hash-indexes.js';
import * as m022 from './migrations/022-aliases.js';
import * as m023 from './migrations/023-security.js';
import * as m024 from './migrations/024-support-requests.js';
import * as m025 from './migrations/025-filter-run-skipped.js';
import * as m026 from './migrations/026-filter-sends.js';
import * as m027 from './migrations/027-domains.js';
import * as m028 from './migrations/028-domain-confirm-started.js';
import * as m029 from './migrations/029-collectors.js';
import * as m030 from './migrations/030-blob-collection.js';
import * as m031 from './migrations/031-search-by-account.js';
import * as m032 from './migrations/032-filter-redirect-counts.js';
import * as m033 from './migrations/033-contact-imports.js';
import * as m035 from './migrations/035-code-cap-late-payments.js';
import * as m037 from './migrations/037-kept-collector-records.js';
import * as m038 from './migrations/038-thread-latest.js';
import * as m039 from './migrations/039-job-queue.js';
import * as m040 from './migrations/040-message-verdict.js';
import * as m041 from './migrations/041-time-controls.js';
import * as m042 from './migrations/042-mail-imports.js';
import * as m043 from './migrations/043-import-uploads.js';
import * as m044 from './migrations/044-thread-at-by-index.js';

export type * from './schema.js';
export { checkpointIfDue, upkeepDatabase, upkeepWanted } from './upkeep.js';
export { poolStats, type PoolStats } from './pool-metrics.js';
export { countRows, deleteRows, ownRow } from './fragments.js';
export type Db = Kysely<Database>;

declare const inTransaction: unique symbol;
/**
 * A database handle inside a transaction. Functions that take row locks or purge rows demand it
 * by type, so a lock can never be taken on a bare connection where it would end at once.
 */
export type Trx = Db & { readonly [inTransaction]: true };

/** What runs once a transaction has committed (afterCommit), per transaction transact() opened. */
const commitHooks = new WeakMap<object, (() => unknown)[]>();

/**
 * Runs `fn` in a transaction: the caller's when `db` already is one, a new one otherwise. The hooks given to
 * afterCommit inside it run once the outermost transaction has committed (never when it rolls back).
 */
export async function transact<T>(db: Db, fn: (trx: Trx) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db as Trx);
  const hooks: (() => unknown)[] = [];
  const result = await db.transaction().execute((trx) => {
    commitHooks.set(trx, hooks);
    return fn(trx as unknown as Trx);
  });
  for (const hook of hooks) await hook();
  return result;
}

/**
 * Runs `hook` after the transaction `trx` belongs to has committed: for code that changes rows inside a transaction
 * someone else opened (an invoice purpose's handler inside settleInvoice) and must tell others only once the change
 * is visible. The hook must not throw (emit never does). `trx` must come from transact().
 */
export function afterCommit(trx: Trx, hook: () => unknown): void {
  const hooks = commitHooks.get(trx);
  if (!hooks) throw new Error('afterCommit: the transaction was not opened by transact()');
  hooks.push(hook);
}

/** Whether a database error is a unique index refusing a row (two writers racing past a check, say). */
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '23505';
}

const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-idp-store': m002,
  '003-mail-store': m003,
  '005-delivery': m005,
  '006-folders-and-lists': m006,
  '007-search': m007,
  '009-encrypted-messages': m009,
  '008-sending': m008,
  '010-search-field-lexemes': m010,
  '011-shared-state': m011,
  '012-jobs': m012,
  '013-session-id-token': m013,
  '014-principal-uploads-and-sign-in-throttles': m014,
  '015-unique-label-names': m015,
  '016-filters': m016,
  '018-blobs': m018,
  '019-contacts': m019,
  '020-wallet': m020,
  '021-hash-indexes': m021,
  '022-aliases': m022,
  '023-security': m023,
  '024-support-requests': m024,
  '025-filter-run-skipped': m025,
  '026-filter-sends': m026,
  '027-domains': m027,
  '028-domain-confirm-started': m028,
  '029-collectors': m029,
  '030-blob-collection': m030,
  '031-search-by-account': m031,
  '032-filter-redirect-counts': m032,
  '033-contact-imports': m033,
  '035-code-cap-late-payments': m035,
  '037-kept-collector-records': m037,
  '038-thread-latest': m038,
  '039-job-queue': m039,
  '040-message-verdict': m040,
  '041-time-controls': m041,
  '042-mail-imports': m042,
  '043-import-uploads': m043,
  '044-thread-at-by-index': m044,
};

// int8 ids and byte counts fit in a JS number; both drivers return numbers so queries agree.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
// bigint[] (messages.labels) likewise: PGlite gives numbers, pg would give strings.
const INT8_ARRAY = 1016 as Parameters<typeof pg.types.getTypeParser>[0];
const parseInt8Array = pg.types.getTypeParser(INT8_ARRAY);
pg.types.setTypeParser(INT8_ARRAY, (v) => (parseInt8Array(v) as string[]).map(Number));

export type DbSource = { kind: 'postgres'; url: string } | PgliteSource;

/** Hot statements run as named ones on PostgreSQL too (StatementCache): parsed once per connection, plans cached. */
const postgresStatements = new StatementCache(500);

/**
 * Makes a pooled client run parameterised statements under the name the cache gives them; pg
 * prepares a name on each connection the first time it runs there. Connections idle for 10 s
 * are closed by the pool, which drops whatever they prepared.
 */
function nameStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((text: unknown, values?: unknown, callback?: unknown) => {
    if (typeof text === 'string' && Array.isArray(values) && values.length && callback === undefined) {
      const name = postgresStatements.nameFor(text);
      if (name)
        return (query({ name, text, values }) as Promise<unknown>).catch((err: unknown) => {
          if (!isStalePlan(err)) throw err;
          postgresStatements.renew();
          return query(text, values);
        });
    }
    return callback === undefined ? query(text, values) : query(text, values, callback);
  }) as typeof client.query;
}

export async function openDatabase(source: DbSource): Promise<Db> {
  if (source.kind === 'postgres') {
    const max = 10;
    const pool = new pg.Pool({ connectionString: source.url, max });
    // An idle client whose backend goes away (restart, failover, pg_terminate_backend) emits 'error'
    // on the pool; unhandled, that would crash the process. The pool drops the client and the next
    // query opens a new connection, so there is nothing else to do.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => nameStatements(client));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    registerPoolStats(db, () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max,
    }));
    return db;
  }
  // PGlite (its JavaScript, its WebAssembly, the extensions) is loaded only by a server that uses it: one on
  // PostgreSQL starts ~6 MB smaller without it.
  const { openPglite } = await import('./pglite-open.js');
  return openPglite(source);
}

/** Applies every migration not yet applied; run at start-up, the same for PGlite and PostgreSQL. */
export async function migrate(db: Db): Promise<void> {
  // Unordered: work built side by side takes numbers in parallel (020 landed after 021 and 025), and a database
  // migrated before a lower number landed runs that one too; each migration stands on its own.
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/** The database the settings name: PostgreSQL at DATABASE_URL, or embedded PGlite under DATA_DIR; migrated. */
export async function openConfiguredDatabase(config: Config): Promise<Db> {
  const db = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : {
          kind: 'pglite',
          dataDir: path.join(config.dataDir, 'pglite'),
          fsync: config.pgliteFsync,
          ...(config.pgliteSharedBuffersMb ? { sharedBuffersMb: config.pgliteSharedBuffersMb } : {}),
          groupCommit: config.pgliteGroupCommit,
        },
  );
  await migrate(db);
  measurePool(db);
  return db;
}
