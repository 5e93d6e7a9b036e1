import { sql, type Kysely } from 'kysely';

/**
 * What a collector copied outlives the collector when its mail is kept (issue 28 item 19). Deleting a collector with
 * "keep the mail" removed its collector_folders and collector_messages rows with it, so adding the same mailbox again
 * copied everything a second time beside the kept copies. Now those rows stay, detached: `collector_id` is null and
 * `kept_account_id`, `kept_host` and `kept_login` say whose mailbox on which server they recorded. A collector added
 * later by the same account for the same server and login takes them up again — the local folders they point at,
 * each folder's UIDVALIDITY and highest copied UID, the messages recorded — and copies only what is new. Exactly one
 * of collector_id and kept_account_id is set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table collector_folders alter column collector_id drop not null;
    alter table collector_folders
      add column kept_account_id bigint references accounts (id) on delete cascade,
      add column kept_host text,
      add column kept_login text,
      add column kept_at timestamptz,
      add constraint collector_folders_owner check ((collector_id is null) <> (kept_account_id is null));
    create index collector_folders_kept on collector_folders (kept_account_id, kept_host, kept_login)
      where kept_account_id is not null;
  `.execute(db);
}
