import { Counter, Gauge, Histogram } from 'prom-client';
import type { Db } from '../core/db/index.js';
import { durationBuckets, metricsRegistry } from '../core/metrics.js';
import { countQueued } from './sending.repository.js';

let queuedIn: Db | undefined;

/** The database whose queued outbox rows /metrics reports (the process's, once its outbox job runs). */
export function measureOutbox(db: Db): void {
  queuedIn = db;
}

new Gauge({
  name: 'mailroom_outbox_queued',
  help: 'Outbox rows waiting to be delivered (the whole queue: every process on the database reports the same number)',
  labelNames: ['target'] as const,
  registers: [metricsRegistry],
  async collect() {
    if (!queuedIn) return;
    const counts = await countQueued(queuedIn).catch(() => undefined);
    if (!counts) return;
    this.set({ target: 'local' }, counts.local);
    this.set({ target: 'relay' }, counts.remote);
  },
});
const attempts = new Counter({
  name: 'mailroom_outbox_attempts_total',
  help: 'Outbox delivery attempts by target (local, relay) and outcome (sent, retry, bounced)',
  labelNames: ['target', 'outcome'] as const,
  registers: [metricsRegistry],
});
const duration = new Histogram({
  name: 'mailroom_outbox_attempt_duration_seconds',
  help: 'Outbox delivery attempt duration by target (local: a group of local rows of one message; relay: one row)',
  labelNames: ['target'] as const,
  buckets: durationBuckets,
  registers: [metricsRegistry],
});

export const outboxMetrics = {
  attempt(target: 'local' | 'relay'): () => void {
    const end = duration.startTimer({ target });
    return () => void end();
  },
  settled(target: 'local' | 'relay', outcome: 'sent' | 'retry' | 'bounced') {
    attempts.inc({ target, outcome });
  },
};
