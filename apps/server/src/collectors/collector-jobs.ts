import {
  expireLeasesOf as expireJobLeasesOf,
  goneLocalOwners,
  liveLeaseOwners as liveJobLeaseOwners,
  processLeaseOwner,
  runDueJob,
  startQueueWorker,
  wakeJobs,
  type JobHandler,
} from '../core/jobs/index.js';
import { runPassOf, type CollectorImportDeps } from './collector-import.js';
import {
  collectorDueInMs,
  expireLeasesOf,
  liveLeaseOwners,
  takeCollector,
} from './collector-sync.repository.js';
import { COLLECTOR_JOB } from './collector-sync.js';

/** How long a collector's lease lasts unless renewed (CollectorImportDeps.leaseMs's default). */
const LEASE_MS = 120_000;

/**
 * The collector job's handler: takes the collector when it is due and runs its pass; then the job is due when the
 * collector is next, and ends once it is disabled, stopped or deleted. `ran` is told when a pass ran.
 */
export function collectorPassHandler(deps: CollectorImportDeps, ran?: () => void): JobHandler {
  return async (job, ctx) => {
    const id = Number(job.key);
    const row = await takeCollector(deps.db, id, deps.owner, deps.leaseMs ?? LEASE_MS);
    if (row) {
      ran?.();
      const signal = deps.signal ? AbortSignal.any([deps.signal, ctx.signal]) : ctx.signal;
      await runPassOf({ ...deps, signal }, row);
    }
    const dueInMs = await collectorDueInMs(deps.db, id);
    return dueInMs === null ? undefined : { again: dueInMs };
  };
}

/** Claims a due collector's job and runs its pass; false when no collector was due (tests run passes one by one). */
export async function runCollectorPass(deps: CollectorImportDeps): Promise<boolean> {
  let ran = false;
  const handler = collectorPassHandler(deps, () => (ran = true));
  const leaseMs = deps.leaseMs ?? LEASE_MS;
  while (
    !ran &&
    (await runDueJob({
      db: deps.db,
      kind: COLLECTOR_JOB,
      handler,
      owner: deps.owner,
      leaseMs,
      log: deps.log,
    }))
  );
  return ran;
}

/** A collector became due now (created, enabled, its password changed): this process's passes look at once. */
export function wakeCollectorJobs(): void {
  wakeJobs(COLLECTOR_JOB);
}

/**
 * The collectors' durable jobs in this process: every `pollMs` (and when woken) up to `concurrency` passes claim due
 * collector jobs from the queue (one per collector) until none is due. Stopping aborts the passes between batches;
 * their collectors are due again at once for whichever process runs next. Before each look, the leases of this host's
 * processes that are gone are ended, so their collectors are taken up at once.
 */
export function startCollectorJobs(
  deps: Omit<CollectorImportDeps, 'owner' | 'signal'> & {
    owner?: string;
    pollMs?: number;
    concurrency?: number;
  },
): { stop(): Promise<void> } {
  const passDeps: CollectorImportDeps = { ...deps, owner: deps.owner ?? processLeaseOwner() };
  return startQueueWorker({
    db: deps.db,
    name: 'collectors',
    log: deps.log,
    owner: passDeps.owner,
    pollMs: deps.pollMs ?? 10_000,
    leaseMs: deps.leaseMs ?? LEASE_MS,
    concurrency: deps.concurrency ?? 2,
    handlers: { [COLLECTOR_JOB]: collectorPassHandler(passDeps) },
    beforePass: async () => {
      const owners = [
        ...(await liveLeaseOwners(deps.db)),
        ...(await liveJobLeaseOwners(deps.db, [COLLECTOR_JOB])),
      ];
      const gone = goneLocalOwners([...new Set(owners)]);
      const ended =
        (await expireLeasesOf(deps.db, gone)) + (await expireJobLeasesOf(deps.db, [COLLECTOR_JOB], gone));
      if (ended > 0) deps.log.info({ owners: gone }, 'took up the collectors of a process that is gone');
    },
  });
}
