import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb } from '../_util.js';
import { up as jobQueue } from '../../src/core/db/migrations/039-job-queue.js';
import { claimJobs, findJob } from '../../src/core/jobs/jobs.repository.js';

const db = await createTestDb();

describe('the job queue migration (039)', () => {
  it('turns the recurring jobs table (one row per name) into the queue, keeping its rows', async () => {
    // The shape migration 012 made, with the rows a server running before 039 left.
    await sql`drop table jobs`.execute(db);
    await sql`
      create table jobs (
        name text primary key,
        run_at timestamptz not null default now(),
        last_started_at timestamptz,
        last_error text
      )`.execute(db);
    await sql`
      insert into jobs (name, run_at, last_started_at, last_error) values
        ('session-sweep', now() + interval '30 minutes', now() - interval '30 minutes', null),
        ('blob-collector', now() - interval '1 minute', now() - interval '61 minutes', 'disk on fire')`.execute(
      db,
    );
    // The outbox kept its own schedule then.
    await sql`alter table outbox add column next_attempt_at timestamptz not null default now()`.execute(db);
    await sql`create index outbox_due on outbox (next_attempt_at) where status = 'queued'`.execute(db);
    await jobQueue(db as never);
    const { rows } = await sql`select 1 from information_schema.columns
      where table_name = 'outbox' and column_name = 'next_attempt_at'`.execute(db);
    expect(rows).toEqual([]);

    const sweep = (await findJob(db, 'recurring', 'session-sweep'))!;
    expect(sweep).toMatchObject({ kind: 'recurring', attempts: 0, lease_owner: null, last_error: null });
    expect(sweep.run_at.getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);
    expect(sweep.last_started_at).not.toBeNull();
    const blobs = (await findJob(db, 'recurring', 'blob-collector'))!;
    expect(blobs).toMatchObject({ last_error: 'disk on fire', payload: {} });
    // Claimed as the queue claims: the due one only.
    const claimed = await claimJobs(db, {
      owner: 'test',
      leaseMs: 60_000,
      limit: 10,
      kinds: [],
      recurring: ['session-sweep', 'blob-collector'],
    });
    expect(claimed.map((j) => j.key)).toEqual(['blob-collector']);
    // One row per kind and key; new kinds take ids of their own.
    await expect(
      sql`insert into jobs (kind, key) values ('recurring', 'session-sweep')`.execute(db),
    ).rejects.toThrow();
    await sql`insert into jobs (kind, key) values ('filter-run', 'session-sweep')`.execute(db);
  });
});
