import { sql, type Kysely } from 'kysely';

/**
 * Recurring jobs shared by every server process on the database: one row a job, claimed with
 * FOR UPDATE SKIP LOCKED when due, so an hourly sweep runs once an hour however many processes run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table jobs (
      name text primary key,
      run_at timestamptz not null default now(),
      last_started_at timestamptz,
      last_error text
    )
  `.execute(db);
}
