import { sql, type RawBuilder } from 'kysely';
import type { Db, Trx } from '../db/index.js';

/**
 * The job queue's SQL (table `jobs`, migration 039). A job is one row per kind and key; it is due when `run_at` has
 * passed. Claiming pushes `run_at` to the end of the claim's lease, so a leased row is simply not due: a process that
 * dies leaves it to be claimed again when the lease runs out. Every later write (complete, repeat, retry, release,
 * renew) holds only while the row is still the claim's (its owner and attempt), so a claim that lost its lease to
 * another process changes nothing.
 */

export interface Job<P = unknown> {
  id: number;
  kind: string;
  key: string;
  payload: P;
  run_at: Date;
  lease_owner: string | null;
  lease_until: Date | null;
  /** Claims since the last success, this one counted. */
  attempts: number;
  last_error: string | null;
  last_started_at: Date | null;
}

const columns = [
  'id',
  'kind',
  'key',
  'payload',
  'run_at',
  'lease_owner',
  'lease_until',
  'attempts',
  'last_error',
  'last_started_at',
] as const;

const interval = (ms: number) => sql`${`${Math.max(0, Math.round(ms))} milliseconds`}::interval`;

/** The back-off after a failed attempt: 5 seconds, doubling with each attempt, at most an hour. */
export function jobBackoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3600_000);
}

/**
 * Queues a job (in the caller's transaction when given one): due after `delayMs` (at once by default). A job of the
 * same kind and key already queued takes the new payload and the earlier of the two times (its attempts and error
 * start afresh), unless it is leased now (being run): then only its payload changes, and the run's end decides.
 */
export async function enqueueJob(
  db: Db | Trx,
  job: { kind: string; key: string; payload?: unknown; delayMs?: number },
): Promise<void> {
  await enqueueJobs(db, [job]);
}

/** enqueueJob for several jobs in one statement. */
export async function enqueueJobs(
  db: Db | Trx,
  jobs: { kind: string; key: string; payload?: unknown; delayMs?: number }[],
): Promise<void> {
  if (!jobs.length) return;
  await sql`
    insert into jobs (kind, key, payload, run_at)
    select kind, key, payload::jsonb, now() + make_interval(secs => delay / 1000.0)
    from unnest(${jobs.map((j) => j.kind)}::text[], ${jobs.map((j) => j.key)}::text[],
      ${jobs.map((j) => JSON.stringify(j.payload ?? {}))}::text[],
      ${jobs.map((j) => Math.max(0, Math.round(j.delayMs ?? 0)))}::bigint[]) as q(kind, key, payload, delay)
    on conflict (kind, key) do update set
      payload = excluded.payload,
      run_at = case when jobs.lease_owner is null then least(jobs.run_at, excluded.run_at) else jobs.run_at end,
      last_error = case when jobs.lease_owner is null then null else jobs.last_error end,
      attempts = case when jobs.lease_owner is null then 0 else jobs.attempts end`.execute(db);
}

/** Queues a recurring job's row once (due at once when new); an existing row keeps its schedule. */
export async function ensureJob(db: Db, kind: string, key: string): Promise<void> {
  await sql`insert into jobs (kind, key) values (${kind}, ${key}) on conflict (kind, key) do nothing`.execute(
    db,
  );
}

/** Takes a job out of the queue (its work was withdrawn: a run cancelled, a collector deleted). */
export async function deleteJob(db: Db | Trx, kind: string, key: string): Promise<void> {
  await db.deleteFrom('jobs').where('kind', '=', kind).where('key', '=', key).execute();
}

/**
 * Claims up to `limit` due jobs of `kinds` (and the recurring jobs named in `recurring`), oldest due first, for
 * `leaseMs`: FOR UPDATE SKIP LOCKED in the same statement as the lease it writes, so two processes asking at once
 * never get the same row, on PostgreSQL as on PGlite. The queue's only claim.
 */
export async function claimJobs(
  db: Db,
  opts: {
    owner: string;
    leaseMs: number;
    limit: number;
    kinds: readonly string[];
    recurring?: readonly string[];
    /** Only these keys (a send delivering its own local rows at once). */
    keys?: readonly string[];
  },
): Promise<Job[]> {
  if (opts.limit <= 0 || (opts.kinds.length === 0 && !opts.recurring?.length)) return [];
  const { rows } = await sql<Job>`
    update jobs set
      lease_owner = ${opts.owner},
      lease_until = now() + ${interval(opts.leaseMs)},
      run_at = now() + ${interval(opts.leaseMs)},
      attempts = jobs.attempts + 1,
      last_started_at = now()
    where id in (
      select id from jobs
      where run_at <= now()
        and (kind = any(${[...opts.kinds]}::text[])
          or (kind = 'recurring' and key = any(${[...(opts.recurring ?? [])]}::text[])))
        and (${opts.keys ? [...opts.keys] : null}::text[] is null or key = any(${opts.keys ? [...opts.keys] : null}::text[]))
      order by run_at
      limit ${opts.limit}
      for update skip locked
    )
    returning ${sql.join(columns.map((c) => sql.ref(`jobs.${c}`)))}`.execute(db);
  return rows.sort((a, b) => a.run_at.getTime() - b.run_at.getTime() || a.id - b.id);
}

type Claim = Pick<Job, 'id' | 'lease_owner' | 'attempts'>;

const held = (claim: Claim) =>
  sql`id = ${claim.id} and lease_owner = ${claim.lease_owner} and attempts = ${claim.attempts}`;

/** Changes the job only while `claim` still holds it (lease owner and attempt); false when the claim had lost it. */
async function updateHeld(db: Db | Trx, claim: Claim, set: RawBuilder<unknown>): Promise<boolean> {
  const { rows } = await sql`update jobs set ${set} where ${held(claim)} returning id`.execute(db);
  return rows.length > 0;
}

/** The job is done: its row goes. False when the claim had lost its lease. */
export async function completeJob(db: Db | Trx, claim: Claim): Promise<boolean> {
  const { rows } = await sql`delete from jobs where ${held(claim)} returning id`.execute(db);
  return rows.length > 0;
}

/** completeJob for several claims in one statement (a batch's jobs that are done); answers how many still held. */
export async function completeJobs(db: Db | Trx, claims: Claim[]): Promise<number> {
  if (!claims.length) return 0;
  const { rows } = await sql`
    delete from jobs using unnest(${claims.map((c) => c.id)}::bigint[], ${claims.map((c) => c.lease_owner)}::text[],
      ${claims.map((c) => c.attempts)}::int[]) as c(id, owner, attempts)
    where jobs.id = c.id and jobs.lease_owner = c.owner and jobs.attempts = c.attempts
    returning jobs.id`.execute(db);
  return rows.length;
}

/**
 * A recurring job's run ended: next due `intervalMs` after now (counted from the end of the run), attempts back to
 * none; `error` is what went wrong in this run (kept), null after a good one.
 */
export async function repeatJob(
  db: Db | Trx,
  claim: Claim,
  intervalMs: number,
  error: string | null = null,
): Promise<boolean> {
  return updateHeld(
    db,
    claim,
    sql`run_at = now() + ${interval(intervalMs)}, lease_owner = null, lease_until = null,
      attempts = 0, last_error = ${error}`,
  );
}

/**
 * The job is to run again later without having failed (a collector's next poll, a batch job's next batch): due after
 * `delayMs`, attempts back to none, payload replaced when given.
 */
export async function rescheduleJob(
  db: Db | Trx,
  claim: Claim,
  delayMs: number,
  payload?: unknown,
): Promise<boolean> {
  return updateHeld(
    db,
    claim,
    sql`run_at = now() + ${interval(delayMs)}, lease_owner = null, lease_until = null,
      attempts = 0, last_error = null,
      payload = coalesce(${payload === undefined ? null : JSON.stringify(payload)}::jsonb, payload)`,
  );
}

/** The attempt failed: due again after the back-off for its attempts (or `delayMs`), the error kept. */
export async function retryJob(
  db: Db | Trx,
  claim: Claim,
  error: string,
  delayMs?: number,
): Promise<boolean> {
  return updateHeld(
    db,
    claim,
    sql`run_at = now() + ${interval(delayMs ?? jobBackoffMs(claim.attempts))},
      lease_owner = null, lease_until = null, last_error = ${error.slice(0, 1000)}`,
  );
}

/** Gives a claimed job back untried (the process is stopping): due at once, the claim not counted. */
export async function releaseJob(db: Db | Trx, claim: Claim): Promise<boolean> {
  return updateHeld(
    db,
    claim,
    sql`run_at = now(), lease_owner = null, lease_until = null, attempts = greatest(attempts - 1, 0)`,
  );
}

/** Renews the lease while a long handler runs; false when the job is no longer this claim's (the handler should end). */
export async function renewJobLease(db: Db, claim: Claim, leaseMs: number): Promise<boolean> {
  return updateHeld(
    db,
    claim,
    sql`lease_until = now() + ${interval(leaseMs)}, run_at = now() + ${interval(leaseMs)}`,
  );
}

/**
 * renewJobLease for several claims in one statement (a batch's); answers the ids of those no longer this claim's.
 */
export async function renewJobLeases(db: Db, claims: Claim[], leaseMs: number): Promise<number[]> {
  if (!claims.length) return [];
  const { rows } = await sql<{ id: string | number }>`
    update jobs set lease_until = now() + ${interval(leaseMs)}, run_at = now() + ${interval(leaseMs)}
    from unnest(${claims.map((c) => c.id)}::bigint[], ${claims.map((c) => c.lease_owner)}::text[],
      ${claims.map((c) => c.attempts)}::int[]) as c(id, owner, attempts)
    where jobs.id = c.id and jobs.lease_owner = c.owner and jobs.attempts = c.attempts
    returning jobs.id`.execute(db);
  const renewed = new Set(rows.map((r) => Number(r.id)));
  return claims.filter((c) => !renewed.has(Number(c.id))).map((c) => Number(c.id));
}

/** Who holds a live lease on a job of `kinds` (a handful of rows: the jobs running now). */
export async function liveLeaseOwners(db: Db, kinds: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('jobs')
    .select('lease_owner')
    .distinct()
    .where('kind', 'in', [...kinds])
    .where('lease_owner', 'is not', null)
    .where('lease_until', '>', sql<Date>`now()`)
    .execute();
  return rows.map((r) => r.lease_owner!);
}

/** Ends now the leases `owners` hold on jobs of `kinds` (processes known to be gone): due at once. Answers how many. */
export async function expireLeasesOf(
  db: Db,
  kinds: readonly string[],
  owners: readonly string[],
): Promise<number> {
  if (owners.length === 0) return 0;
  const rows = await db
    .updateTable('jobs')
    .set({ run_at: sql<Date>`now()`, lease_until: sql<Date>`now()` })
    .where('kind', 'in', [...kinds])
    .where('lease_owner', 'in', [...owners])
    .where('lease_until', '>', sql<Date>`now()`)
    .returning('id')
    .execute();
  return rows.length;
}

/** A job's row (tests, and an area's view of its job's state). */
export async function findJob(db: Db, kind: string, key: string): Promise<Job | undefined> {
  return (await db
    .selectFrom('jobs')
    .select(columns)
    .where('kind', '=', kind)
    .where('key', '=', key)
    .executeTakeFirst()) as Job | undefined;
}
