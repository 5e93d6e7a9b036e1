import { measuredRun } from './job-metrics.js';

/**
 * A background job that runs every `intervalMs` (and at once when woken), one run at a time.
 * The work itself must be durable and claimable (rows with FOR UPDATE SKIP LOCKED), so several
 * processes may run the same job; this only paces it in one process.
 */
export interface PeriodicJob {
  /** Run as soon as the current run (if any) ends. */
  wake(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

export function startPeriodicJob(opts: {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: { warn: (obj: object, msg: string) => void };
  /** Start with a run (default true). */
  runAtStart?: boolean;
  /** Count and time each run in the job metrics (default true; a recurring job measures only the runs it claims). */
  measured?: boolean;
}): PeriodicJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (opts.measured === false ? opts.run() : measuredRun(opts.name, opts.run))
      .then(
        () => undefined,
        (err: unknown) => opts.log.warn({ err, job: opts.name }, 'background job failed'),
      )
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(opts.intervalMs);
      });
  };
  schedule(opts.runAtStart === false ? opts.intervalMs : 0);
  return {
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
