import { startQueueWorker, startRecurringJob, type Job, type JobOutcome } from '../core/jobs/index.js';
import { emit } from '../core/events/index.js';
import { requeueOverdueReturns, returnDue, RETURNS_JOB } from '../mailbox/index.js';
import { releaseScheduledSends, SCHEDULED_LEASE_MS, SCHEDULED_SEND } from './scheduled.js';
import { deleteFinishedScheduled } from './scheduled.repository.js';
import { createRelay, OUTBOX_LOCAL, OUTBOX_REMOTE, outboxBatch } from './outbox.js';
import { deleteFinishedOutbox, deleteStaleUploads } from './sending.repository.js';
import type { SendingDeps } from './outbox.js';
import { UPLOAD_TTL_MS } from './uploads.js';
import { measureOutbox } from './outbox-metrics.js';

/** Delivered and bounced outbox rows are kept this long, for an operator looking into a complaint. */
const FINISHED_OUTBOX_TTL_MS = 7 * 24 * 3600_000;
const SWEEP_INTERVAL_MS = 3600_000;
/** Due items a process works on at once (each its own transaction; the pool's other connections serve requests). */
const DUE_CONCURRENCY = 4;

/** `fn` over `items`, at most `limit` at a time, the results in the items' order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/**
 * The outbox worker (every OUTBOX_POLL_MS, and at once when a send queues remote mail; a job per outbox row, claimed
 * in batches) and an hourly sweep, once across all processes, of compose uploads nobody
 * used and of old finished outbox rows. Their blobs are shared by content: the blob collector (core/blobs) removes
 * them once nothing references them (`blobsOfSending` answers for these tables).
 */
export function startSendingJobs(deps: SendingDeps): { stop(): Promise<void> } {
  const relay = deps.config.smtpRelayUrl ? createRelay(deps.config.smtpRelayUrl) : undefined;
  measureOutbox(deps.db);
  // Remote mail is claimed only by a process with a relay; without one it stays queued.
  const outbox = startQueueWorker({
    db: deps.db,
    name: 'outbox',
    log: deps.log,
    pollMs: deps.config.outbox.pollMs,
    leaseMs: deps.config.outbox.leaseMs,
    batch: { kinds: relay ? [OUTBOX_LOCAL, OUTBOX_REMOTE] : [OUTBOX_LOCAL], run: outboxBatch(deps, relay) },
  });
  const sweep = startRecurringJob({
    db: deps.db,
    name: 'sending-sweep',
    intervalMs: SWEEP_INTERVAL_MS,
    run: async () => {
      const now = Date.now();
      await deleteStaleUploads(deps.db, new Date(now - UPLOAD_TTL_MS));
      await deleteFinishedOutbox(deps.db, new Date(now - FINISHED_OUTBOX_TTL_MS));
    },
    log: deps.log,
  });
  // Due items (issue 31): scheduled sends (undo holds included) and each account's returns (snoozes, follow-ups),
  // claimed once across processes; one claim statement per DUE_POLL_MS when idle.
  const returns = async (job: Job): Promise<JobOutcome> => {
    const accountId = Number(job.key);
    const { events, next } = await returnDue(deps.db, accountId);
    await emit(deps.db, deps, accountId, events);
    if (next) return { again: Math.max(0, next.getTime() - Date.now()) };
  };
  const due = startQueueWorker({
    db: deps.db,
    name: 'due',
    log: deps.log,
    pollMs: deps.config.timeControls.pollMs,
    leaseMs: SCHEDULED_LEASE_MS,
    // Up to 50 due items a claim: its scheduled sends released together (one transaction of a few statements), its
    // accounts' returns each in its own transaction, DUE_CONCURRENCY at a time. A minute in which thousands fall due
    // is worked through by every process at once, a claim statement per 50 rather than per item.
    batch: {
      kinds: [SCHEDULED_SEND, RETURNS_JOB],
      run: async (jobs) => {
        const sends = jobs.filter((j) => j.kind === SCHEDULED_SEND);
        const others = jobs.filter((j) => j.kind !== SCHEDULED_SEND);
        const [sent, returned] = await Promise.all([
          releaseScheduledSends(
            deps,
            sends.map((j) => Number(j.key)),
          ),
          mapLimited(others, DUE_CONCURRENCY, (job) =>
            returns(job).catch((err: unknown): JobOutcome => {
              deps.log.warn({ err, job: job.kind, key: job.key }, 'a due item failed; retried');
              return { retry: err instanceof Error ? err.message : String(err) };
            }),
          ),
        ]);
        const outcomes = new Map<Job, JobOutcome>();
        sends.forEach((job, i) => outcomes.set(job, sent[i]));
        others.forEach((job, i) => outcomes.set(job, returned[i]));
        return jobs.map((job) => outcomes.get(job));
      },
    },
  });
  // Once a minute: a returns job a race left behind is queued again; sent rows older than a day go.
  const dueSweep = startRecurringJob({
    db: deps.db,
    name: 'due-sweep',
    intervalMs: 60_000,
    run: async () => {
      await requeueOverdueReturns(deps.db);
      await deleteFinishedScheduled(deps.db, new Date(Date.now() - 86_400_000));
    },
    log: deps.log,
  });
  return {
    /** Attempts under way end; claimed rows not yet attempted are given back (outboxBatch). */
    async stop() {
      await Promise.all([outbox.stop(), sweep.stop(), due.stop(), dueSweep.stop()]);
      relay?.close();
    },
  };
}
