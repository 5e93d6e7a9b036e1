import { sql, type Kysely } from 'kysely';

/**
 * SMTP ingest: recipients are looked up case-insensitively on every RCPT, and a retried
 * delivery (same bytes to the same account shortly after) is recognised by its blob hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index accounts_email_lower on accounts (lower(email));
    create index aliases_email_lower on aliases (lower(email));
    create index messages_account_blob on messages (account_id, blob_hash, received_at desc);
  `.execute(db);
}
