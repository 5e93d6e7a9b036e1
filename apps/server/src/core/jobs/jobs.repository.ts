import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** The job's row, made once; a new job is due at once. */
export async function ensureJob(db: Db, name: string): Promise<void> {
  await db
    .insertInto('jobs')
    .values({ name })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Claims the job when it is due: moves its next run `intervalMs` ahead in the same statement, so
 * of several processes asking at once exactly one gets it (the row lock; the others skip it).
 */
export async function claimDueJob(db: Db, name: string, intervalMs: number): Promise<boolean> {
  const { rows } = await sql<{ name: string }>`
    with due as (
      select name from jobs where name = ${name} and run_at <= now() for update skip locked
    )
    update jobs set run_at = now() + ${`${intervalMs} milliseconds`}::interval, last_started_at = now()
    from due where jobs.name = due.name
    returning jobs.name`.execute(db);
  return rows.length > 0;
}

export async function recordJobError(db: Db, name: string, error: string | null): Promise<void> {
  await db.updateTable('jobs').set({ last_error: error }).where('name', '=', name).execute();
}
