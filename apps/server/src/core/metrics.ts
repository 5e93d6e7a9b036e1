import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus registry, served at /metrics (http/metrics.ts): the process defaults (CPU, memory, event
 * loop, GC) and what each area counts — ingest, delivery, outbox, jobs, collectors, websocket clients, the database
 * pool. Each area defines its own metrics (once, at module load) with `registers: [metricsRegistry]`. Labels stay few
 * and bounded: no account, address or message ever names a series.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

/** Buckets for work that takes milliseconds to minutes (a store, a relay attempt, a job run), in seconds. */
export const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
