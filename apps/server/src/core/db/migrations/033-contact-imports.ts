import { sql, type Kysely } from 'kysely';

/**
 * contact_imports: a contacts file being imported, a durable job (issue 28): POST contacts/import puts the file in
 * the blob store (not in the database: a 5 MB bytea holds embedded PGlite for seconds) and answers at once; the contact-imports job claims it (FOR UPDATE SKIP LOCKED), reads the file in slices and
 * writes its entries in short transactions, each storing how far it got (`done`), so a restart resumes there. The
 * file's hash is cleared when the import ends (the blob collector then removes the file). One queued or running import per account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table contact_imports (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      state text not null default 'queued' check (state in ('queued', 'running', 'done', 'failed')),
      format text not null,
      group_id bigint,
      blob_hash text,
      total integer not null default 0,
      done integer not null default 0,
      added integer not null default 0,
      updated integer not null default 0,
      unchanged integer not null default 0,
      groups_added integer not null default 0,
      skipped jsonb not null default '[]',
      skipped_count integer not null default 0,
      over_limit integer not null default 0,
      groups_over_limit integer not null default 0,
      error text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index contact_imports_active on contact_imports (account_id) where state in ('queued', 'running');
    create index contact_imports_account on contact_imports (account_id, id);
    create index contact_imports_blob on contact_imports (blob_hash) where blob_hash is not null;
  `.execute(db);
}
