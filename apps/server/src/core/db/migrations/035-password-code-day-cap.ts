import { sql, type Kysely } from 'kysely';

/**
 * A daily cap on mailbox-password codes (issue 28 item 12). Five wrong tries per code and one code a minute still left
 * 7,200 guesses a day; `day_started_at` and `day_codes` count the codes asked for in the 24 hours from the first, and
 * `locked_until` is set when the last one allowed (PASSWORD_CODES_PER_DAY) is given: no code until then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table password_codes add column day_started_at timestamptz;
    alter table password_codes add column day_codes integer not null default 0;
    alter table password_codes add column locked_until timestamptz;
  `.execute(db);
}
