import { sql, type Kysely } from 'kysely';

/**
 * State several processes on one database must share (issue 11).
 * server_keys: keys the service generates once per SECRET_KEY and keeps encrypted under it (the
 * embedded IdP's signing key), one row per name; the first process to start inserts it.
 * rate_limits: the fixed-window counters of @fastify/rate-limit on PostgreSQL, one row per route and
 * client key; rows past reset_at are swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table server_keys (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );
    create table rate_limits (
      key text primary key,
      count integer not null,
      reset_at timestamptz not null
    );
    create index rate_limits_reset_at on rate_limits (reset_at);
  `.execute(db);
}
