import { Counter, Histogram } from 'prom-client';
import { durationBuckets, metricsRegistry } from '../metrics.js';

const runs = new Counter({
  name: 'mailroom_job_runs_total',
  help: 'Background job runs in this process, by job (a recurring job counts the runs it claimed, not each look)',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});
const failures = new Counter({
  name: 'mailroom_job_failures_total',
  help: 'Background job runs that threw, by job',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
});
const duration = new Histogram({
  name: 'mailroom_job_duration_seconds',
  help: 'Background job run duration, by job',
  labelNames: ['job'] as const,
  buckets: durationBuckets,
  registers: [metricsRegistry],
});

/** Runs a job's work, counted and timed under its name (a fixed name per job, never per row). */
export async function measuredRun<T>(job: string, run: () => Promise<T>): Promise<T> {
  const end = duration.startTimer({ job });
  runs.inc({ job });
  try {
    return await run();
  } catch (err) {
    failures.inc({ job });
    throw err;
  } finally {
    end();
  }
}
