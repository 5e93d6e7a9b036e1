import { sql, type Kysely } from 'kysely';

/**
 * compose_uploads.alias_email: an upload belongs to the session principal that made it (null: the
 * mailbox owner; else the address of a password-access session), so one cannot attach another's.
 *
 * sign_in_throttles: wrong passwords per sign-in name (a member ID at the embedded provider, an
 * address with password access), shared by every process: how many in a row, the last one, until
 * when further tries wait, and whether the owner has been told. Rows of a quiet name are swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table compose_uploads add column alias_email text;
    create table sign_in_throttles (
      key text primary key,
      failures integer not null,
      last_failure_at timestamptz not null,
      blocked_until timestamptz not null,
      notified_at timestamptz
    );
    create index sign_in_throttles_last_failure_at on sign_in_throttles (last_failure_at);
  `.execute(db);
}
