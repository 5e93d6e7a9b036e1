import { sql, type Kysely } from 'kysely';

/**
 * Chunked uploads of import files (issue 33). `mail_import_uploads`: a file of up to several GB on its way in, in
 * parts of IMPORT_UPLOAD_PART_BYTES; `mail_import_upload_parts`: each part received, as a blob of the blob store (so
 * any server process can take the next part, and a restart loses none). An import started from a complete upload
 * names it in `mail_imports.source_upload`; the upload is removed when that import ends, or a day after its last
 * part when no import took it (the blob collector then removes its parts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table mail_import_uploads (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      file_name text not null,
      size bigint not null check (size > 0),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index mail_import_uploads_account on mail_import_uploads (account_id);

    create table mail_import_upload_parts (
      upload_id bigint not null references mail_import_uploads (id) on delete cascade,
      part integer not null,
      size integer not null,
      blob_hash text not null,
      primary key (upload_id, part)
    );
    create index mail_import_upload_parts_blob on mail_import_upload_parts (blob_hash);

    alter table mail_imports
      add column source_upload bigint references mail_import_uploads (id) on delete set null;
    -- One import per upload, however many clicks start it.
    create unique index mail_imports_upload on mail_imports (source_upload) where source_upload is not null;
  `.execute(db);
}
