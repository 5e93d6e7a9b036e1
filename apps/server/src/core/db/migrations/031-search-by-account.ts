import { sql, type Kysely } from 'kysely';

/**
 * Search indexes keyed by the account first (issue 19, docs/SCALING.md §3.1). The full-text index held the search
 * vectors alone, so a search gathered the matches of every mailbox in the database before keeping the member's: its
 * cost grew with the database, not the mailbox (379 -> 758 rows for the same 1 counted when a second mailbox got the
 * same mail). `message_contents.account_id` (the message's own, never changing) and GIN indexes on (account, vector)
 * and (account, sender trigrams), with btree_gin for the account's equality, let one account's search read only its
 * own entries. Rows stored before take their message's account; the indexes are built once at the end.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`alter table message_contents add column account_id bigint`.execute(db);
  await sql`update message_contents c set account_id = m.account_id from messages m where m.id = c.message_id`.execute(
    db,
  );
  await sql`alter table message_contents alter column account_id set not null`.execute(db);
  await sql`drop index message_contents_search`.execute(db);
  await sql`create index message_contents_search on message_contents using gin (account_id, search_vector)
    with (gin_pending_list_limit = 256)`.execute(db);
  await sql`drop index messages_from_trgm`.execute(db);
  await sql`create index messages_from_trgm on messages using gin (account_id, from_email gin_trgm_ops)`.execute(
    db,
  );
}
