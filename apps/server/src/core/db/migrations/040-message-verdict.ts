import { sql, type Kysely } from 'kysely';

/**
 * Inbound mail is checked (issue 30): `message_contents.verdict` keeps what the receiving path found out about a
 * message — SPF, DKIM, DMARC and ARC results, the spam score and symbols, the member's list that decided — for the
 * reader (null: mail that never crossed SMTP, or arrived before). `sender_lists` are a member's allow and block lists
 * of addresses and domains: one list per entry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table message_contents add column verdict jsonb`.execute(db);
  await sql`
    create table sender_lists (
      account_id bigint not null references accounts (id) on delete cascade,
      entry text not null,
      list text not null check (list in ('allow', 'block')),
      created_at timestamptz not null default now(),
      primary key (account_id, entry)
    )`.execute(db);
}
