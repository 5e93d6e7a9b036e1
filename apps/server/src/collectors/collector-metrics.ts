import { Counter } from 'prom-client';
import { metricsRegistry } from '../core/metrics.js';

/** How a collector's pass ended: a fixed set, so the series stay few (never a collector or an account). */
export type PassResult =
  'synced' | 'stopping' | 'lease_lost' | 'quota' | 'auth_failed' | 'stopped' | 'failed';

const passes = new Counter({
  name: 'mailroom_collector_passes_total',
  help:
    'Collector passes in this process by result: synced, stopping (given back at shutdown), lease_lost, quota, ' +
    'auth_failed (retrying), stopped (too many refusals), failed (the remote server, retrying)',
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});
const imported = new Counter({
  name: 'mailroom_collector_messages_imported_total',
  help: 'Messages collectors copied into mailboxes (copies matched to earlier ones and skipped ones not counted)',
  registers: [metricsRegistry],
});

export const collectorMetrics = {
  pass(result: PassResult) {
    passes.inc({ result });
  },
  imported(count: number) {
    if (count > 0) imported.inc(count);
  },
};
