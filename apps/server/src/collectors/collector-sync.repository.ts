import { sql } from 'kysely';
import type { CollectorState } from '@mailroom/protocol';
import type { Db, Trx } from '../core/db/index.js';
import type { CollectorRow } from './collectors.repository.js';

/**
 * The import job's SQL on the collector's row (migration 029): claiming a due collector under a lease, the pass's
 * progress and outcome. What was copied of each remote folder is collector-records.repository.ts.
 */

export type { CollectorRow };

/** A write of the pass, fenced by its lease: it changes the collector only while `owner` holds the lease. */
const leased = (db: Db, id: number, owner: string) =>
  db.updateTable('collectors').where('id', '=', id).where('lease_owner', '=', owner);

/**
 * Takes the collector for its pass when it is due (its job was claimed from the queue, so no other process asks for
 * it meanwhile): its lease, `lease_until`, is renewed while the pass runs and fences every write of the pass; a
 * process that dies leaves a lease that runs out, and the collector is due again then (its next_sync_at is null while
 * a pass runs, so the lease's end is when it is due). Undefined when it is not due, disabled, stopped or gone.
 */
export async function takeCollector(
  db: Db,
  id: number,
  owner: string,
  leaseMs: number,
): Promise<CollectorRow | undefined> {
  return db
    .updateTable('collectors')
    .set({
      lease_owner: owner,
      lease_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval`,
      next_sync_at: null,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', id)
    .where('enabled', '=', true)
    .where('state', 'not in', ['stopped', 'disabled'])
    .where(sql<boolean>`coalesce(next_sync_at, lease_until) <= now()`)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]))
    .returningAll()
    .executeTakeFirst();
}

/**
 * In how many milliseconds the collector is due (0 when it is now; not before the end of a lease a pass holds); null when
 * it is disabled, stopped or gone: its job then ends.
 */
export async function collectorDueInMs(db: Db, id: number): Promise<number | null> {
  const row = await db
    .selectFrom('collectors')
    // A live lease (a pass under way) holds it until the lease ends, even when next_sync_at came due meanwhile.
    .select(
      sql<number | null>`extract(epoch from greatest(coalesce(next_sync_at, lease_until),
        case when lease_until > now() then lease_until end) - now()) * 1000`.as('ms'),
    )
    .where('id', '=', id)
    .where('enabled', '=', true)
    .where('state', 'not in', ['stopped', 'disabled'])
    .executeTakeFirst();
  if (!row || row.ms === null) return null;
  return Math.max(0, Math.ceil(Number(row.ms)));
}

/** Who holds a lease that has not run out yet (a handful of rows: the passes running now). */
export async function liveLeaseOwners(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('collectors')
    .select('lease_owner')
    .distinct()
    .where('lease_owner', 'is not', null)
    .where('lease_until', '>', sql<Date>`now()`)
    .execute();
  return rows.map((r) => r.lease_owner!);
}

/**
 * Ends now the leases of owners known to be gone (a process of this host that no longer exists), so their collectors
 * are due at once instead of when the leases run out. Answers how many were ended.
 */
export async function expireLeasesOf(db: Db, owners: readonly string[]): Promise<number> {
  if (owners.length === 0) return 0;
  const rows = await db
    .updateTable('collectors')
    .set({ lease_until: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('lease_owner', 'in', [...owners])
    .where('lease_until', '>', sql<Date>`now()`)
    .returning('id')
    .execute();
  return rows.length;
}

/**
 * Renews the lease while the pass works; false when it is no longer this process's (it ran out and another took the
 * collector) or the collector was disabled, deleted or stopped meanwhile: the pass then ends.
 */
export async function renewLease(db: Db, id: number, owner: string, leaseMs: number): Promise<boolean> {
  const row = await leased(db, id, owner)
    .set({ lease_until: sql<Date>`now() + ${`${leaseMs} milliseconds`}::interval` })
    .where('enabled', '=', true)
    .where('state', 'not in', ['stopped', 'disabled'])
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export interface CollectorProgressColumns {
  folders_done: number;
  folders_total: number;
  messages_done: number;
  messages_total: number;
  messages_skipped: number;
}

/** The pass's progress (and state 'importing'), while the lease is this process's; the row after, or undefined. */
export async function saveProgress(
  db: Db,
  id: number,
  owner: string,
  progress: CollectorProgressColumns,
): Promise<CollectorRow | undefined> {
  return leased(db, id, owner)
    .set({ ...progress, updated_at: sql<Date>`now()` })
    .returningAll()
    .executeTakeFirst();
}

export async function markImporting(db: Db, id: number, owner: string): Promise<CollectorRow | undefined> {
  return leased(db, id, owner)
    .set({ state: 'importing', updated_at: sql<Date>`now()` })
    .where('enabled', '=', true)
    .returningAll()
    .executeTakeFirst();
}

export interface PassOutcome {
  state: Extract<CollectorState, 'idle' | 'retrying' | 'stopped'>;
  /** When the next pass is due (null when stopped). */
  nextSyncInMs: number | null;
  lastError: string | null;
  failures: number;
  authFailures: number;
  /** The pass went over the whole mailbox. */
  synced: boolean;
  progress?: CollectorProgressColumns;
}

/**
 * Ends a pass: the lease is given up and the outcome written — unless the user disabled the collector meanwhile
 * (it stays disabled, with no next pass). Only this process's lease is ended; undefined when it was not its own.
 */
export async function releaseCollector(
  db: Db,
  id: number,
  owner: string,
  outcome: PassOutcome,
): Promise<CollectorRow | undefined> {
  return releaseWith(db, id, owner, outcome);
}

async function releaseWith(db: Db, id: number, owner: string, outcome: PassOutcome) {
  const next =
    outcome.nextSyncInMs === null
      ? null
      : sql<Date>`now() + ${`${Math.round(outcome.nextSyncInMs)} milliseconds`}::interval`;
  const nextOrNull = next ?? sql<null>`null::timestamptz`;
  return leased(db, id, owner)
    .set({
      state: sql<CollectorState>`case when enabled and state <> 'disabled' then ${outcome.state} else 'disabled' end`,
      next_sync_at: sql<Date | null>`case when enabled and state <> 'disabled' then ${nextOrNull} else null end`,
      last_error: outcome.lastError,
      last_error_at: outcome.lastError === null ? null : sql<Date>`now()`,
      ...(outcome.synced ? { last_sync_at: sql<Date>`now()` } : {}),
      failures: outcome.failures,
      auth_failures: outcome.authFailures,
      lease_owner: null,
      lease_until: null,
      ...(outcome.progress ?? {}),
      updated_at: sql<Date>`now()`,
    })
    .returningAll()
    .executeTakeFirst();
}

/** releaseCollector inside a transaction another step shares (the notice of a stop commits with it). */
export async function releaseCollectorIn(trx: Trx, id: number, owner: string, outcome: PassOutcome) {
  return releaseWith(trx, id, owner, outcome);
}

/**
 * Inside a batch's transaction: the lease is still this process's (and renewed). False means another process took
 * the collector (this one stalled past its lease) or it was disabled: the batch is rolled back.
 */
export async function holdsLease(trx: Trx, id: number, owner: string, leaseMs: number): Promise<boolean> {
  return renewLease(trx, id, owner, leaseMs);
}

export async function findCollectorRow(db: Db, id: number): Promise<CollectorRow | undefined> {
  return db.selectFrom('collectors').selectAll().where('id', '=', id).executeTakeFirst();
}
