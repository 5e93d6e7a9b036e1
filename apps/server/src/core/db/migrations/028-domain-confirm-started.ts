import { sql, type Kysely } from 'kysely';

/**
 * domains.confirm_started_at: when the owner first asked to verify the domain (confirm). A domain not verified 7 days
 * after that is failed as expired by the daily job; a confirm after the expiry starts the 7 days again. created_at
 * would not do: a domain may be added long before its records are published.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table domains add column confirm_started_at timestamptz`.execute(db);
}
