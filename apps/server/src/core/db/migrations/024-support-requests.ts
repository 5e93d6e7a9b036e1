import { sql, type Kysely } from 'kysely';

/**
 * support_requests (issue 16, the support area): each request an account sent to the support address from
 * settings/support, for its history and the hourly limit; whether the diagnostics went with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table support_requests (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      subject text not null,
      text text not null,
      diagnostics boolean not null,
      created_at timestamptz not null default now()
    );
    create index support_requests_account_created on support_requests (account_id, created_at desc);
  `.execute(db);
}
