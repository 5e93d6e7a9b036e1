import { sql, type Kysely } from 'kysely';

/**
 * One durable job queue for every area (core/jobs): a row a job, `kind` and `key` naming it (one row per kind and
 * key: enqueueing again moves the same row), `payload` what the handler needs, `run_at` when it is due. A claim takes
 * due rows with FOR UPDATE SKIP LOCKED and pushes `run_at` to the end of its lease (`lease_owner`, `lease_until`), so
 * a process that dies leaves rows that are due again when the lease runs out. `attempts` counts claims since the last
 * success, `last_error` keeps what went wrong. The recurring jobs' table of migration 012 becomes the queue: its rows
 * (keyed by `name`) are kept as kind 'recurring', key the old name; the areas' unfinished work gets its jobs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jobs drop constraint jobs_pkey`.execute(db);
  await sql`alter table jobs rename column name to key`.execute(db);
  await sql`alter table jobs add column id bigserial primary key`.execute(db);
  await sql`alter table jobs add column kind text not null default 'recurring'`.execute(db);
  await sql`alter table jobs alter column kind drop default`.execute(db);
  await sql`
    alter table jobs
      add column payload jsonb not null default '{}'::jsonb,
      add column lease_owner text,
      add column lease_until timestamptz,
      add column attempts integer not null default 0,
      add column created_at timestamptz not null default now()
  `.execute(db);
  await sql`create unique index jobs_kind_key on jobs (kind, key)`.execute(db);
  await sql`create index jobs_due on jobs (run_at)`.execute(db);
  // The work the areas queued before: a job each, due at once.
  await sql`
    insert into jobs (kind, key, run_at)
    select 'filter-run', id::text, updated_at from filter_runs where state in ('queued', 'running')`.execute(
    db,
  );
  await sql`
    insert into jobs (kind, key, run_at)
    select 'contact-import', id::text, updated_at from contact_imports where state in ('queued', 'running')`.execute(
    db,
  );
  // Outgoing mail: a job per queued row, when it was next due; the row's own schedule goes (the job holds it).
  await sql`
    insert into jobs (kind, key, run_at, attempts)
    select case when local then 'outbox-local' else 'outbox-remote' end, id::text, next_attempt_at, attempts
    from outbox where status = 'queued'`.execute(db);
  // Collectors: a job each while enabled and not stopped, due when the collector is (or when its lease runs out).
  await sql`
    insert into jobs (kind, key, run_at)
    select 'collector', id::text, coalesce(next_sync_at, lease_until, now())
    from collectors where enabled and state not in ('stopped', 'disabled')`.execute(db);
  await sql`drop index outbox_due`.execute(db);
  await sql`alter table outbox drop column next_attempt_at`.execute(db);
}
