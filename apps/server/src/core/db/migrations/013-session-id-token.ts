import { sql, type Kysely } from 'kysely';

/**
 * The ID token the provider issued at sign-in, kept with the session: signing out hands it to the provider's
 * end_session_endpoint (id_token_hint), so the provider ends its own session too and the next sign-in asks for
 * the password again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions add column id_token text`.execute(db);
}
