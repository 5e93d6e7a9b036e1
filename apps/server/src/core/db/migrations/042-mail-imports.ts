import { sql, type Kysely } from 'kysely';

/**
 * Mail imports (issue 33). `mail_imports`: a file (an mbox, an .eml, a .zip or .tar.gz of .eml) imported into an
 * account as a job: where the file is (`source_path` on the server's disk, or `source_blob` in the blob store),
 * how far the import got (`position`: items of the file gone through, written in the same transaction as the
 * messages of its batch, so a restart resumes exactly there) and its counts and report.
 *
 * `mail_import_keys`: every message an account ever imported, by its key (a hash of its Message-ID and of its
 * bytes, or of its bytes alone without a Message-ID), inserted in the transaction that stores it: the same message
 * is stored once per account however often, or after however many kills, an import runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_imports (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
      format text,
      file_name text not null,
      source_path text,
      source_blob text,
      filters boolean not null default false,
      position integer not null default 0,
      total integer not null default 0,
      stored integer not null default 0,
      already_here integer not null default 0,
      skipped integer not null default 0,
      failed integer not null default 0,
      report jsonb not null default '[]',
      error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index mail_imports_account on mail_imports (account_id, id);
    create index mail_imports_blob on mail_imports (source_blob) where source_blob is not null;

    create table mail_import_keys (
      account_id bigint not null references accounts (id) on delete cascade,
      key text not null,
      primary key (account_id, key)
    );
  `.execute(db);
}
