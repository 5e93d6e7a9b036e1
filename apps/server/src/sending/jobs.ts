import { startPeriodicJob, startRecurringJob } from '../core/jobs/index.js';
import { createRelay, onOutboxWake, runOutbox } from './outbox.js';
import { deleteFinishedOutbox, deleteStaleUploads } from './sending.repository.js';
import type { SendingDeps } from './outbox.js';
import { UPLOAD_TTL_MS } from './uploads.js';
import { measureOutbox } from './outbox-metrics.js';

/** Delivered and bounced outbox rows are kept this long, for an operator looking into a complaint. */
const FINISHED_OUTBOX_TTL_MS = 7 * 24 * 3600_000;
const SWEEP_INTERVAL_MS = 3600_000;

/**
 * The outbox job (every OUTBOX_POLL_MS, and at once when a send queues remote mail; its rows are
 * claimed one by one) and an hourly sweep, once across all processes, of compose uploads nobody
 * used and of old finished outbox rows. Their blobs are shared by content: the blob collector (core/blobs) removes
 * them once nothing references them (`blobsOfSending` answers for these tables).
 */
export function startSendingJobs(deps: SendingDeps): { stop(): Promise<void> } {
  const relay = deps.config.smtpRelayUrl ? createRelay(deps.config.smtpRelayUrl) : undefined;
  const stopping = new AbortController();
  measureOutbox(deps.db);
  const outbox = startPeriodicJob({
    name: 'outbox',
    intervalMs: deps.config.outbox.pollMs,
    run: () => runOutbox(deps, relay, stopping.signal),
    log: deps.log,
  });
  const stopWaking = onOutboxWake(() => outbox.wake());
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
  return {
    /** Attempts under way end; claimed rows not yet attempted are given back (deliverClaimed). */
    async stop() {
      stopping.abort();
      stopWaking();
      await Promise.all([outbox.stop(), sweep.stop()]);
      relay?.close();
    },
  };
}
