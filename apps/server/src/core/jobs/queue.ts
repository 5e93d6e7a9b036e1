import { EventEmitter } from 'node:events';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';
import {
  claimJobs,
  completeJob,
  completeJobs,
  ensureJob,
  releaseJob,
  renewJobLeases,
  repeatJob,
  rescheduleJob,
  retryJob,
  type Job,
} from './jobs.repository.js';
import { measuredRun } from './job-metrics.js';

/** What a handler's run came to; nothing (undefined) means done: the job's row goes. */
export type JobOutcome =
  void | { again: number; payload?: unknown } | { retry: string; delayMs?: number } | 'release';

export interface JobContext {
  /** Aborts when the process is stopping or the lease was lost: end between steps. */
  signal: AbortSignal;
  /** Whether the lease is no longer this claim's (another process took the job): write nothing more. */
  lost(): boolean;
}

export type JobHandler = (job: Job, ctx: JobContext) => Promise<JobOutcome>;

/** A job the queue runs every `intervalMs` once across all processes (kind 'recurring', key its name). */
export interface RecurringJob {
  key: string;
  intervalMs: number;
  run: () => Promise<unknown>;
}

export interface QueueWorker {
  /** Look for due jobs now (as soon as the current pass ends). */
  wake(): void;
  /** Stops polling, aborts the handlers running (they end between steps) and waits for them. */
  stop(): Promise<void>;
}

type Log = { warn: (obj: object, msg: string) => void };

const wakes = new EventEmitter().setMaxListeners(0);

/** Work of `kind` was queued: this process's workers for it look at once rather than at their next poll. */
export function wakeJobs(kind: string): void {
  wakes.emit(kind);
}

/**
 * The owners among `owners` that are processes of this host which no longer exist: a server killed mid-pass and
 * started again finds its old leases this way and resumes at once rather than when they run out. A process of
 * another host (or container) is never judged; misjudging one would only cost work, not correctness — every batch
 * commits only while its lease is still its own.
 */
export function goneLocalOwners(owners: readonly string[], host = os.hostname()): string[] {
  return owners.filter((owner) => {
    const parts = owner.split(':');
    if (parts.length < 3) return false;
    const pid = Number(parts[parts.length - 2]);
    if (parts.slice(0, -2).join(':') !== host || !Number.isInteger(pid) || pid <= 0 || pid === process.pid)
      return false;
    try {
      process.kill(pid, 0);
      return false;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ESRCH';
    }
  });
}

/** This process's name on the leases it takes: host, pid and a random part (a restarted pid is another owner). */
export function processLeaseOwner(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

interface RunParts {
  db: Db;
  log: Log;
  leaseMs: number;
  /** Aborts when the process stops. */
  stopping: AbortSignal;
}

/** Runs `work` under the claims' lease, renewed every third of it; the context aborts on stop or a lost lease. */
async function leased<T>(parts: RunParts, claims: Job[], work: (ctx: JobContext) => Promise<T>): Promise<T> {
  const { db, log, leaseMs, stopping } = parts;
  const ended = new AbortController();
  const onStop = () => ended.abort();
  if (stopping.aborted) ended.abort();
  stopping.addEventListener('abort', onStop);
  let lost = false;
  // All the claims' leases in one statement (a batch of 50 renewed every third of a 2-s lease was 75 a second).
  const renewal = setInterval(() => {
    renewJobLeases(db, claims, leaseMs).then(
      (gone) => {
        if (gone.length && !lost) {
          lost = true;
          ended.abort();
        }
      },
      (err: unknown) => log.warn({ err, jobs: claims.length }, 'renewing job leases failed'),
    );
  }, leaseMs / 3);
  renewal.unref();
  try {
    return await work({ signal: ended.signal, lost: () => lost });
  } finally {
    clearInterval(renewal);
    stopping.removeEventListener('abort', onStop);
  }
}

/** Writes what a run came to on the job's row (nothing happens when the claim had lost its lease). */
async function settle(parts: RunParts, job: Job, outcome: JobOutcome | { failed: unknown }): Promise<void> {
  const { db } = parts;
  if (outcome && typeof outcome === 'object' && 'failed' in outcome) {
    if (parts.stopping.aborted) await releaseJob(db, job);
    else await retryJob(db, job, message(outcome.failed));
  } else if (outcome === 'release') await releaseJob(db, job);
  else if (outcome && 'again' in outcome) await rescheduleJob(db, job, outcome.again, outcome.payload);
  else if (outcome && 'retry' in outcome) await retryJob(db, job, outcome.retry, outcome.delayMs);
  else await completeJob(db, job);
}

/** Runs one claimed job's handler under its lease and settles it. */
async function runClaimed(parts: RunParts, job: Job, handler: JobHandler): Promise<void> {
  const outcome = await leased(parts, [job], (ctx) => handler(job, ctx)).catch((err: unknown) => {
    parts.log.warn({ err, job: job.kind, key: job.key }, 'background job failed');
    return { failed: err };
  });
  await settle(parts, job, outcome);
}

/**
 * Claims one due job of `kind` and runs it as a worker would; false when none was due. For tests and tools that
 * work a queue through step by step.
 */
export async function runDueJob(opts: {
  db: Db;
  kind: string;
  handler: JobHandler;
  log?: Log;
  owner?: string;
  leaseMs?: number;
}): Promise<boolean> {
  const leaseMs = opts.leaseMs ?? 60_000;
  const [job] = await claimJobs(opts.db, {
    owner: opts.owner ?? processLeaseOwner(),
    leaseMs,
    limit: 1,
    kinds: [opts.kind],
  });
  if (!job) return false;
  const parts = {
    db: opts.db,
    log: opts.log ?? { warn: () => {} },
    leaseMs,
    stopping: new AbortController().signal,
  };
  await runClaimed(parts, job, opts.handler);
  return true;
}

/**
 * Claims the due jobs of `kinds` among `keys` and runs them now as one batch, as a batch worker would (a send
 * delivering its local copies at once rather than at the outbox's next poll). Answers how many were claimed.
 */
export async function runJobsNow(opts: {
  db: Db;
  kinds: string[];
  keys: string[];
  run: (jobs: Job[], ctx: JobContext) => Promise<JobOutcome[]>;
  log: Log;
  owner?: string;
  leaseMs?: number;
}): Promise<number> {
  if (!opts.keys.length) return 0;
  const leaseMs = opts.leaseMs ?? 60_000;
  const jobs = await claimJobs(opts.db, {
    owner: opts.owner ?? processLeaseOwner(),
    leaseMs,
    limit: opts.keys.length,
    kinds: opts.kinds,
    keys: opts.keys,
  });
  if (!jobs.length) return 0;
  const parts = { db: opts.db, log: opts.log, leaseMs, stopping: new AbortController().signal };
  await runBatch(parts, jobs, opts.run);
  return jobs.length;
}

async function runBatch(
  parts: RunParts,
  jobs: Job[],
  run: (jobs: Job[], ctx: JobContext) => Promise<JobOutcome[]>,
): Promise<void> {
  const outcomes = await leased(parts, jobs, (ctx) => run(jobs, ctx)).catch((err: unknown) => {
    parts.log.warn({ err }, 'background job failed');
    return jobs.map(() => ({ failed: err }));
  });
  // The jobs done (most of a batch) go in one statement; the others are settled one by one.
  const done = jobs.filter((_, i) => outcomes[i] === undefined);
  if (done.length) await completeJobs(parts.db, done);
  for (const [i, job] of jobs.entries()) if (outcomes[i] !== undefined) await settle(parts, job, outcomes[i]);
}

/**
 * A worker of the job queue in this process: every `pollMs` (and when woken) it claims due jobs of its kinds, up to
 * `concurrency` at a time, and runs their handlers until none is due. A handler's lease is renewed every third of
 * `leaseMs` while it runs; one that throws is retried with back-off (5 s doubling to an hour), the error kept on the
 * row. Recurring jobs run their `run` and are due again `intervalMs` after it ended (an error is kept, not retried
 * sooner). Stopping aborts the handlers; a handler that gives its job back ('release') leaves it due at once.
 */
export function startQueueWorker(opts: {
  db: Db;
  /** The worker's name in the job metrics (each pass counted and timed); recurring jobs count under their key. */
  name: string;
  log: Log;
  handlers?: Record<string, JobHandler>;
  /** Instead of `handlers`: all claimed jobs at once, an outcome for each, in order (work grouped across jobs). */
  batch?: { kinds: string[]; run: (jobs: Job[], ctx: JobContext) => Promise<JobOutcome[]> };
  recurring?: RecurringJob[];
  owner?: string;
  /** How often to look for due jobs (default a second). */
  pollMs?: number;
  /** A claim's lease, renewed while the handler runs (default a minute). */
  leaseMs?: number;
  /** Jobs run at once (default 1); a batch worker claims up to `batchSize` (default 50) at a time. */
  concurrency?: number;
  batchSize?: number;
  /** Start with a look (default true). */
  runAtStart?: boolean;
  /** Done before each look for due jobs (an area's own upkeep: ending the leases of processes known to be gone). */
  beforePass?: () => Promise<void>;
}): QueueWorker {
  const { db, log } = opts;
  const handlers = opts.handlers ?? {};
  const kinds = opts.batch ? opts.batch.kinds : Object.keys(handlers);
  const recurring = new Map((opts.recurring ?? []).map((r) => [r.key, r]));
  const owner = opts.owner ?? processLeaseOwner();
  const leaseMs = opts.leaseMs ?? 60_000;
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let ready: Promise<void> | undefined;
  const parts: RunParts = { db, log, leaseMs, stopping: stopping.signal };

  const runOne = async (job: Job): Promise<void> => {
    const every = job.kind === 'recurring' ? recurring.get(job.key) : undefined;
    if (every) {
      let error: string | null = null;
      await leased(parts, [job], () => measuredRun(job.key, every.run)).catch((err: unknown) => {
        log.warn({ err, job: job.key }, 'background job failed');
        error = message(err);
      });
      await repeatJob(db, job, every.intervalMs, error);
      return;
    }
    const handler = handlers[job.kind];
    if (!handler) return void (await releaseJob(db, job));
    await runClaimed(parts, job, handler);
  };

  const claim = (limit: number) =>
    claimJobs(db, { owner, leaseMs, limit, kinds, recurring: [...recurring.keys()] });

  /** Claims and runs due jobs until none is due or the worker stops. */
  const pass = async (): Promise<void> => {
    ready ??= Promise.all([...recurring.keys()].map((key) => ensureJob(db, 'recurring', key))).then(() => {});
    await ready;
    await opts.beforePass?.();
    if (opts.batch) {
      const { run } = opts.batch;
      while (!stopping.signal.aborted) {
        const jobs = await claim(opts.batchSize ?? 50);
        if (!jobs.length) return;
        const batchJobs = jobs.filter((j) => j.kind !== 'recurring');
        await Promise.all(jobs.filter((j) => j.kind === 'recurring').map(runOne));
        if (!batchJobs.length) continue;
        await runBatch(parts, batchJobs, run);
      }
      return;
    }
    const lane = async () => {
      while (!stopping.signal.aborted) {
        const [job] = await claim(1);
        if (!job) return;
        await runOne(job);
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency ?? 1 }, lane));
  };

  const schedule = (ms: number) => {
    if (stopping.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    if (stopping.signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    const work = kinds.length ? measuredRun(opts.name, pass) : pass();
    running = work
      .catch((err: unknown) => log.warn({ err, job: opts.name }, 'background job failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(opts.pollMs ?? 1000);
      });
  };
  const onWake = () => schedule(0);
  for (const kind of kinds) wakes.on(kind, onWake);
  schedule(opts.runAtStart === false ? (opts.pollMs ?? 1000) : 0);
  return {
    wake: onWake,
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      for (const kind of kinds) wakes.off(kind, onWake);
      await running;
    },
  };
}

/**
 * A job run every `intervalMs` once across all server processes on the database (the sweeps): each process looks
 * every `checkMs` (default a minute, at most the interval) and runs it only when it claimed the job's row.
 */
export function startRecurringJob(opts: {
  db: Db;
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: Log;
  checkMs?: number;
}): QueueWorker {
  return startQueueWorker({
    db: opts.db,
    name: opts.name,
    log: opts.log,
    recurring: [{ key: opts.name, intervalMs: opts.intervalMs, run: opts.run }],
    pollMs: Math.min(opts.checkMs ?? 60_000, opts.intervalMs),
  });
}
