import { EventEmitter } from 'node:events';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { startPeriodicJob } from '../core/jobs/index.js';
import { runCollectorPass, type CollectorImportDeps } from './collector-import.js';
import { expireLeasesOf, liveLeaseOwners } from './collector-sync.repository.js';

const wake = new EventEmitter().setMaxListeners(0);

/** A collector became due now (created, enabled, its password changed): this process's passes look at once. */
export function wakeCollectorJobs(): void {
  wake.emit('wake');
}

/** This process's name on the collectors' leases: host, pid and a random part (a restarted pid is another owner). */
export function collectorLeaseOwner(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
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

/**
 * The collectors' durable job in this process: every `pollMs` (and when woken) up to `concurrency` passes claim due
 * collectors (FOR UPDATE SKIP LOCKED and a lease, so processes share them) until none is due. Stopping aborts the
 * passes between batches; their collectors are due again at once for whichever process runs next.
 */
export function startCollectorJobs(
  deps: Omit<CollectorImportDeps, 'owner' | 'signal'> & {
    owner?: string;
    pollMs?: number;
    concurrency?: number;
  },
): { stop(): Promise<void> } {
  const abort = new AbortController();
  const passDeps: CollectorImportDeps = {
    ...deps,
    owner: deps.owner ?? collectorLeaseOwner(),
    signal: abort.signal,
  };
  const worker = async () => {
    while (!abort.signal.aborted && (await runCollectorPass(passDeps)));
  };
  const job = startPeriodicJob({
    name: 'collectors',
    intervalMs: deps.pollMs ?? 10_000,
    log: deps.log,
    run: async () => {
      const gone = goneLocalOwners(await liveLeaseOwners(deps.db));
      if ((await expireLeasesOf(deps.db, gone)) > 0)
        deps.log.info({ owners: gone }, 'took up the collectors of a process that is gone');
      await Promise.all(Array.from({ length: deps.concurrency ?? 2 }, worker));
    },
  });
  const onWake = () => job.wake();
  wake.on('wake', onWake);
  return {
    async stop() {
      abort.abort();
      wake.off('wake', onWake);
      await job.stop();
    },
  };
}
