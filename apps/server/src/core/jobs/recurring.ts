import type { Db } from '../db/index.js';
import { claimDueJob, ensureJob, recordJobError } from './jobs.repository.js';
import { measuredRun } from './job-metrics.js';
import { startPeriodicJob, type PeriodicJob } from './periodic.js';

/**
 * A job that runs every `intervalMs` across all server processes on the database (the sweeps):
 * each process looks every `checkMs` whether it is due and runs it only when it claimed the job's
 * row. A run that fails is logged and recorded on the row; the next one comes an interval later.
 */
export function startRecurringJob(opts: {
  db: Db;
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: { warn: (obj: object, msg: string) => void };
  /** How often a process asks whether the job is due (default a minute, at most the interval). */
  checkMs?: number;
}): PeriodicJob {
  const { db, name } = opts;
  let ready: Promise<void> | undefined;
  return startPeriodicJob({
    name,
    intervalMs: Math.min(opts.checkMs ?? 60_000, opts.intervalMs),
    log: opts.log,
    measured: false,
    run: async () => {
      ready ??= ensureJob(db, name);
      await ready;
      if (!(await claimDueJob(db, name, opts.intervalMs))) return;
      try {
        await measuredRun(name, opts.run);
        await recordJobError(db, name, null);
      } catch (err) {
        await recordJobError(db, name, err instanceof Error ? err.message : String(err)).catch(() => {});
        throw err;
      }
    },
  });
}
