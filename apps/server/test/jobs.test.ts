import { describe, expect, it } from 'vitest';
import { createTestDb } from './_util.js';
import { startRecurringJob } from '../src/core/jobs/index.js';

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
    await sleep(400);
    await Promise.all(jobs.map((j) => j.stop()));
    expect(runs).toBe(1);
    const row = await db
      .selectFrom('jobs')
      .selectAll()
      .where('name', '=', 'test-hourly')
      .executeTakeFirstOrThrow();
    expect(row.run_at.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    expect(row.last_error).toBeNull();
  });

  it('records a failed run and runs again when due', async () => {
    let runs = 0;
    const job = startRecurringJob({
      db,
      name: 'test-often',
      intervalMs: 50,
      checkMs: 10,
      log: quiet,
      run: async () => {
        runs++;
        if (runs === 1) throw new Error('disk on fire');
      },
    });
    await sleep(30);
    const failed = await db
      .selectFrom('jobs')
      .select('last_error')
      .where('name', '=', 'test-often')
      .executeTakeFirstOrThrow();
    expect(failed.last_error).toBe('disk on fire');
    await sleep(250);
    await job.stop();
    expect(runs).toBeGreaterThan(1);
    const after = await db
      .selectFrom('jobs')
      .select('last_error')
      .where('name', '=', 'test-often')
      .executeTakeFirstOrThrow();
    expect(after.last_error).toBeNull();
  });
});
