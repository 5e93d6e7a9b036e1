import { sql, type Kysely } from 'kysely';

/**
 * What a filter sent for a message it kept no copy of (a redirect or reject after discard), by the message's bytes:
 * a sender that retries the same message (our 250 lost on the way) is then not answered twice. A message stored in
 * the mailbox is recognised by its stored copy instead. Rows older than the retry window are dropped as new ones come.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table filter_sends (
      account_id bigint not null references accounts(id) on delete cascade,
      blob_hash text not null,
      sent_at timestamptz not null default now(),
      primary key (account_id, blob_hash)
    )`.execute(db);
}
