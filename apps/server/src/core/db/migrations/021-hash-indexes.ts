import { sql, type Kysely } from 'kysely';

/**
 * The blob and Message-ID lookups of messages (a sender's retry of the same bytes, threading by In-Reply-To and
 * References, a /mail?message_id= link) are equality lookups of long text: a B-tree keeps each 64-character hash or
 * ~50-character Message-ID whole in every entry (~100 bytes an entry, 10 MiB at 100k messages each), a hash index
 * keeps a 4-byte hash code (~20 bytes). The account is checked on the row; a hash or a Message-ID is all but unique.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_account_blob`.execute(db);
  await sql`drop index if exists messages_account_message_id`.execute(db);
  await sql`create index messages_blob on messages using hash (blob_hash)`.execute(db);
  await sql`create index messages_message_id on messages using hash (message_id) where message_id is not null`.execute(
    db,
  );
}
