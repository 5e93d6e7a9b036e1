import { describe, expect, it, vi } from 'vitest';
import { createTestDb } from '../_util.js';
import { startRecurringJob } from '../../src/core/jobs/index.js';

const db = await createTestDb();
const quiet = { warn: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a recurring job shared by several processes', () => {
  it('runs once per interval however many processes look for it', async () => {
    let runs = 0;
    // Three "processes" asking every 10 ms for an hourly job.
    const jobs = Array.from({ length: 3 }, () =>
      startRecurringJob({
        db,
        name: 'test-hourly',
        intervalMs: 3600_000,
        checkMs: 10,
        log: quiet,
        run: async () => {
          runs++;
          await sleep(30);
        },
      }),
    );
    // One of them runs it (however slow the machine), and for a while after, none runs it again.
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 5_000 });
    await sleep(400);
    await Promise.all(jobs.map((j) => j.stop()));
    expect(runs).toBe(1);
    const row = await db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'recurring')
      .where('key', '=', 'test-hourly')
      .executeTakeFirstOrThrow();
    expect(row.run_at.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect(row.last_error).toBeNull();
  });

  it('records a failed run and runs again when due', async () => {
    let runs = 0;
    // The second run waits until the first one's error has been read: polled, not slept, as a loaded machine
    // may take longer than a tick.
    let letSecondRun!: () => void;
    const secondMayRun = new Promise<void>((resolve) => (letSecondRun = resolve));
    const job = startRecurringJob({
      db,
      name: 'test-often',
      intervalMs: 50,
      checkMs: 10,
      log: quiet,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error('disk on fire');
        await secondMayRun;
      },
    });
    const lastError = async () =>
      (
        await db
          .selectFrom('jobs')
          .select('last_error')
          .where('kind', '=', 'recurring')
          .where('key', '=', 'test-often')
          .executeTakeFirst()
      )?.last_error;
    await vi.waitFor(async () => expect(await lastError()).toBe('disk on fire'), { timeout: 5_000 });
    letSecondRun();
    await vi.waitFor(async () => expect(await lastError()).toBeNull(), { timeout: 5_000 });
    await job.stop();
    expect(runs).toBeGreaterThan(1);
  });
});
