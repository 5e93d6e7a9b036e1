import type { Kysely } from 'kysely';
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '../metrics.js';

/** A pool's connections now: open ones, idle ones among them, and callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
  /**
   * Embedded PGlite with the group commit (pglite-durable.ts): the WAL syncs run off the event loop, the commits
   * they covered, and the syncs made on it before a data page, a truncation, a rename or an unlink.
   */
  wal?: { syncs: number; commits: number; ordered: number };
}

const statsOf = new WeakMap<object, () => PoolStats>();
let measured: object | undefined;

/** How `db`'s pool is read (openDatabase registers each pool it makes). */
export function registerPoolStats(db: Kysely<never> | object, stats: () => PoolStats): void {
  statsOf.set(db, stats);
}

/** The pool of `db` now, when it is one openDatabase made. */
export function poolStats(db: object): PoolStats | undefined {
  return statsOf.get(db)?.();
}

/** The database /metrics reports the pool of: the deployment's (openConfiguredDatabase). */
export function measurePool(db: object): void {
  measured = db;
}

new Gauge({
  name: 'mailroom_db_pool_connections',
  help:
    'Database pool: total and idle connections, queries waiting for one, and the most it opens (PostgreSQL: pg.Pool; ' +
    'embedded PGlite: one connection, busy while a query or transaction holds it)',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    const stats = measured && poolStats(measured);
    if (!stats) return;
    for (const state of ['total', 'idle', 'waiting', 'max'] as const) this.set({ state }, stats[state]);
  },
});

new Counter({
  name: 'mailroom_pglite_wal_syncs_total',
  help:
    'Embedded PGlite: WAL fdatasyncs run off the event loop (kind="group"), the commits they covered ' +
    '(kind="commits"; commits / group = commits per sync), and syncs made on the event loop before a data page, ' +
    'a truncation, a rename or an unlink reached the files (kind="ordered")',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
  collect() {
    const wal = measured && poolStats(measured)?.wal;
    if (!wal) return;
    this.reset();
    this.inc({ kind: 'group' }, wal.syncs);
    this.inc({ kind: 'commits' }, wal.commits);
    this.inc({ kind: 'ordered' }, wal.ordered);
  },
});
