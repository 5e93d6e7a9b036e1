import { sql, type Kysely } from 'kysely';

/**
 * Collectors (issue 18), owned by the collectors area.
 *
 * collectors: another IMAP mailbox an account imports from — its server, its login and the password sealed with a key
 * derived from SECRET_KEY (never returned), the collector's folder (`INBOX.import.<address>`), enabled or not, and the
 * state of its durable job: claimed with FOR UPDATE SKIP LOCKED when `next_sync_at` is due and no live lease holds it
 * (`lease_until`), so several processes share the work and a killed one's collector is taken up again once its lease
 * runs out; `failures` paces the back-off after server errors, `auth_failures` stops it after repeated refusals.
 * The progress counters are the latest pass's, shown on the settings screen and sent over the websocket.
 * collector_folders: each remote folder copied, with the local folder it fills, its UIDVALIDITY, the highest UID copied
 * (everything at or below it is in collector_messages), and its HIGHESTMODSEQ when the server offers CONDSTORE.
 * collector_messages: every remote message copied, by folder, UIDVALIDITY and UID, with the message it became (null
 * once that is purged: the user deleted it here, so it is not brought back) and its fingerprint (Message-ID, date,
 * size), which finds what was copied when the server changed UIDVALIDITY. The row is written in the same transaction
 * as the message, so a kill mid-import neither loses nor duplicates one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table collectors (
      id bigint generated always as identity primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      email text not null,
      login text not null,
      host text not null,
      port integer not null check (port between 1 and 65535),
      security text not null check (security in ('tls', 'starttls', 'none')),
      password_sealed text not null,
      folder_name text not null,
      enabled boolean not null default true,
      apply_filters boolean not null default false,
      state text not null default 'importing'
        check (state in ('importing', 'idle', 'retrying', 'stopped', 'disabled')),
      folders_done integer not null default 0,
      folders_total integer not null default 0,
      messages_done integer not null default 0,
      messages_total integer not null default 0,
      messages_skipped integer not null default 0,
      last_error text,
      last_error_at timestamptz,
      last_sync_at timestamptz,
      next_sync_at timestamptz default now(),
      failures integer not null default 0,
      auth_failures integer not null default 0,
      lease_owner text,
      lease_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (account_id, email)
    );
    create index collectors_due on collectors (next_sync_at) where enabled;
    create table collector_folders (
      id bigint generated always as identity primary key,
      collector_id bigint not null references collectors (id) on delete cascade,
      remote_path text not null,
      folder_id bigint references folders (id) on delete set null,
      uidvalidity bigint,
      last_uid bigint not null default 0,
      highest_modseq numeric(20, 0),
      messages_total integer not null default 0,
      messages_done integer not null default 0,
      unique (collector_id, remote_path)
    );
    create table collector_messages (
      collector_folder_id bigint not null references collector_folders (id) on delete cascade,
      uidvalidity bigint not null,
      uid bigint not null,
      message_id bigint references messages (id) on delete set null,
      fingerprint text not null,
      primary key (collector_folder_id, uidvalidity, uid)
    );
    create index collector_messages_fingerprint on collector_messages (collector_folder_id, fingerprint);
    create index collector_messages_message on collector_messages (message_id) where message_id is not null;
  `.execute(db);
}
