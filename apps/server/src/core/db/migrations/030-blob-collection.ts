import { sql, type Kysely } from 'kysely';

/**
 * The blob collector (issue 19). `blobs.written_at`: when the row was written or last put again (a put that finds
 * the blob there sets it to now), so the collector keeps what an ingest may be about to reference; rows already
 * there count from now. The indexes answer "does anything still point at this blob?" for a batch of hashes without
 * reading whole tables: a hash index on each table's `blob_hash` (messages has one, 021), and for messages stored
 * before attachments became ranges of the message (2026-11-24), a GIN index of their attachments' own blobs, partial
 * so a message stored since adds nothing to it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table blobs add column written_at timestamptz not null default now()`.execute(db);
  await sql`create index compose_uploads_blob on compose_uploads using hash (blob_hash)`.execute(db);
  await sql`create index outbox_blob on outbox using hash (blob_hash)`.execute(db);
  await sql`create index encrypted_messages_blob on encrypted_messages using hash (blob_hash)`.execute(db);
  await sql`
    create index messages_attachment_blobs on messages
    using gin ((jsonb_path_query_array(attachments, '$[*].blob_hash')))
    where attachments @? '$[*].blob_hash'`.execute(db);
}
