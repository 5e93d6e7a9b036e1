import { describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { createTestDb } from '../../../test/_util.js';
import { claimJobs, enqueueJob, findJob, jobBackoffMs, renewJobLease } from './jobs.repository.js';
import { startQueueWorker, wakeJobs, type JobHandler } from './queue.js';

const db = await createTestDb();
const quiet = { warn: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the job queue', () => {
  it('a due job is claimed by one of two workers, once', async () => {
    const runs: string[] = [];
    const handler =
      (who: string): JobHandler =>
      async (job) => {
        runs.push(`${who}:${job.key}`);
        await sleep(20);
      };
    for (let i = 0; i < 10; i++) await enqueueJob(db, { kind: 'test-once', key: String(i), payload: { i } });
    const workers = ['a', 'b'].map((who) =>
      startQueueWorker({ db, name: 'test', log: quiet, handlers: { 'test-once': handler(who) }, pollMs: 10 }),
    );
    await vi.waitFor(() => expect(runs).toHaveLength(10), { timeout: 10_000 });
    await sleep(100);
    await Promise.all(workers.map((w) => w.stop()));
    expect(runs).toHaveLength(10);
    expect(new Set(runs.map((r) => r.split(':')[1])).size).toBe(10);
    expect(await db.selectFrom('jobs').select('id').where('kind', '=', 'test-once').execute()).toEqual([]);
  });

  it('one claim statement, two claimers at once: no row twice', async () => {
    for (let i = 0; i < 20; i++) await enqueueJob(db, { kind: 'test-race', key: String(i) });
    const claim = (owner: string) =>
      claimJobs(db, { owner, leaseMs: 60_000, limit: 15, kinds: ['test-race'] });
    const [a, b] = await Promise.all([claim('a'), claim('b')]);
    const ids = [...a, ...b].map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(20);
    expect(await claim('c')).toEqual([]);
  });

  it('a failed run is retried with back-off, its last error kept', async () => {
    await enqueueJob(db, { kind: 'test-retry', key: 'x' });
    let runs = 0;
    const worker = startQueueWorker({
      db,
      name: 'test',
      log: quiet,
      pollMs: 10,
      handlers: {
        'test-retry': async () => {
          runs++;
          throw new Error('disk on fire');
        },
      },
    });
    await vi.waitFor(
      async () => expect((await findJob(db, 'test-retry', 'x'))?.last_error).toBe('disk on fire'),
      {
        timeout: 5_000,
      },
    );
    await sleep(100);
    await worker.stop();
    expect(runs).toBe(1);
    const job = (await findJob(db, 'test-retry', 'x'))!;
    expect(job.attempts).toBe(1);
    expect(job.lease_owner).toBeNull();
    expect(job.run_at.getTime()).toBeGreaterThan(Date.now() + 3_000);
    expect([1, 2, 3, 20].map(jobBackoffMs)).toEqual([5_000, 10_000, 20_000, 3600_000]);
  });

  it('a lease that runs out is claimed again; the old claim can no longer renew or finish', async () => {
    await enqueueJob(db, { kind: 'test-lease', key: 'x' });
    const [first] = await claimJobs(db, { owner: 'gone', leaseMs: 200, limit: 1, kinds: ['test-lease'] });
    expect(first).toBeDefined();
    expect(await claimJobs(db, { owner: 'other', leaseMs: 60_000, limit: 1, kinds: ['test-lease'] })).toEqual(
      [],
    );
    await sleep(300);
    const [again] = await claimJobs(db, { owner: 'other', leaseMs: 60_000, limit: 1, kinds: ['test-lease'] });
    expect(again).toMatchObject({ id: first!.id, lease_owner: 'other', attempts: 2 });
    expect(await renewJobLease(db, first!, 60_000)).toBe(false);
    expect(await renewJobLease(db, again!, 60_000)).toBe(true);
  });

  it('a long handler keeps its lease; stopping gives its job back due at once', async () => {
    await enqueueJob(db, { kind: 'test-long', key: 'x' });
    let started = false;
    const worker = startQueueWorker({
      db,
      name: 'test',
      log: quiet,
      pollMs: 10,
      leaseMs: 150,
      handlers: {
        'test-long': async (_job, ctx) => {
          started = true;
          while (!ctx.signal.aborted) await sleep(10);
          return 'release';
        },
      },
    });
    await vi.waitFor(() => expect(started).toBe(true), { timeout: 5_000 });
    await sleep(400);
    // Renewed: not due for another process meanwhile.
    expect(await claimJobs(db, { owner: 'other', leaseMs: 1000, limit: 1, kinds: ['test-long'] })).toEqual(
      [],
    );
    await worker.stop();
    const job = (await findJob(db, 'test-long', 'x'))!;
    expect(job).toMatchObject({ attempts: 0, lease_owner: null });
    expect(job.run_at.getTime()).toBeLessThanOrEqual(Date.now() + 50);
  });

  it('a recurring job is due again an interval after its run ended, once across workers', async () => {
    let runs = 0;
    const workers = Array.from({ length: 2 }, () =>
      startQueueWorker({
        db,
        name: 'test',
        log: quiet,
        pollMs: 10,
        recurring: [
          {
            key: 'test-recurring',
            intervalMs: 3600_000,
            run: async () => {
              runs++;
              await sleep(30);
            },
          },
        ],
      }),
    );
    await vi.waitFor(() => expect(runs).toBe(1), { timeout: 5_000 });
    await sleep(200);
    await Promise.all(workers.map((w) => w.stop()));
    expect(runs).toBe(1);
    const job = (await findJob(db, 'recurring', 'test-recurring'))!;
    expect(job).toMatchObject({ attempts: 0, lease_owner: null, last_error: null });
    expect(job.run_at.getTime()).toBeGreaterThan(Date.now() + 3500_000);
  });

  it('wakeJobs makes a worker look at once, and a job due later waits for its time', async () => {
    const ran: string[] = [];
    const worker = startQueueWorker({
      db,
      name: 'test',
      log: quiet,
      pollMs: 3600_000,
      handlers: { 'test-wake': async (job) => void ran.push(job.key) },
    });
    await sleep(50);
    await enqueueJob(db, { kind: 'test-wake', key: 'later', delayMs: 3600_000 });
    await enqueueJob(db, { kind: 'test-wake', key: 'now' });
    wakeJobs('test-wake');
    await vi.waitFor(() => expect(ran).toEqual(['now']), { timeout: 5_000 });
    await worker.stop();
    const later = (await findJob(db, 'test-wake', 'later'))!;
    expect(later.run_at.getTime()).toBeGreaterThan(Date.now() + 3500_000);
    // Queued again sooner: the earlier time wins.
    await enqueueJob(db, { kind: 'test-wake', key: 'later' });
    const { rows } = await sql<{ due: boolean }>`
      select run_at <= now() as due from jobs where kind = 'test-wake' and key = 'later'`.execute(db);
    expect(rows[0]!.due).toBe(true);
  });
});
