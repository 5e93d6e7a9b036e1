import { sql, type Kysely } from 'kysely';

/**
 * filter_redirect_counts (issue 28): how many messages an account's filters redirected in the current hour and the
 * current day (one row per account and period, its count started again when the period changes), so the caps
 * REDIRECT_LIMIT_HOUR and REDIRECT_LIMIT_DAY hold across every process; `notified` says the owner was told of the
 * cap in this period already, so a flood brings one notice, not one per message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table filter_redirect_counts (
      account_id bigint not null references accounts (id) on delete cascade,
      period text not null check (period in ('hour', 'day')),
      starts_at timestamptz not null,
      count integer not null,
      notified boolean not null default false,
      primary key (account_id, period)
    )`.execute(db);
}
