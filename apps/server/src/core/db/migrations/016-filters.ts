import { sql, type Kysely } from 'kysely';

/**
 * Filters (issue 14), owned by the filters area.
 *
 * filter_scripts: each account's one active Sieve script, as text in Roundcube's form, and its version (bumped by
 * every save, so a save made from an older one is refused).
 * filter_errors: the latest runtime errors of a script at delivery (the message was kept in the Inbox); the
 * filters screen shows them, and only the newest 20 of an account are kept.
 * filter_runs: a script applied to a folder's existing mail, a durable job: claimed with FOR UPDATE SKIP LOCKED,
 * worked through in batches by UID with its cursor stored, so a restart resumes; one queued or running run per
 * folder.
 * vacation_replies: when an account last answered a sender with a vacation reply of a handle, so it answers once
 * per period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table filter_scripts (
      account_id bigint primary key references accounts (id) on delete cascade,
      script text not null,
      version integer not null,
      updated_at timestamptz not null default now()
    );
    create table filter_errors (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      at timestamptz not null default now(),
      filter text,
      message text not null
    );
    create index filter_errors_account on filter_errors (account_id, id desc);
    create table filter_runs (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      folder_id bigint not null references folders (id) on delete cascade,
      script text not null,
      dry_run boolean not null,
      state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
      total integer not null default 0,
      done integer not null default 0,
      matched integer not null default 0,
      moved integer not null default 0,
      flagged integer not null default 0,
      labelled integer not null default 0,
      deleted integer not null default 0,
      cursor_uid bigint not null default 0,
      error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index filter_runs_active_folder on filter_runs (folder_id) where state in ('queued', 'running');
    create index filter_runs_account on filter_runs (account_id);
    create table vacation_replies (
      account_id bigint not null references accounts (id) on delete cascade,
      sender text not null,
      handle text not null,
      replied_at timestamptz not null,
      primary key (account_id, sender, handle)
    );
  `.execute(db);
}
