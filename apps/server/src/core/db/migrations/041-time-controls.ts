import { sql, type Kysely } from 'kysely';

/**
 * Time on the member's side (issue 31). Two system folders join the five: Scheduled (INBOX.Scheduled) holds the
 * copy of a message waiting to be sent — held for the undo window or scheduled for later — and Snoozed
 * (INBOX.Snoozed) what was put away until a time. A folder a member already made under either name becomes the
 * system folder (its name is taken, and the sidebar shows one folder of that name).
 *
 * - `scheduled_sends` (sending/): one row per waiting message, with everything its release needs (the outbound
 *   blob, the envelope, the message it answers, the uploads to drop); a released row stays a day as 'sent', so an
 *   undo that comes too late is told so rather than "not found".
 * - `snoozes` (mailbox/): one row per snoozed message, the folder it returns to and when.
 * - `follow_ups` (sending/): a sent message that comes back to the Inbox when no reply arrives by `due_at`.
 * - `messages.returned_at` / `returned_for`: a message that came back (a snooze ended, no reply came) shows why.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table folders drop constraint folders_system_check`.execute(db);
  await sql`
    alter table folders add constraint folders_system_check
      check (system in ('inbox', 'sent', 'draft', 'trash', 'junk', 'scheduled', 'snoozed'))`.execute(db);
  for (const [name, system] of [
    ['INBOX.Scheduled', 'scheduled'],
    ['INBOX.Snoozed', 'snoozed'],
  ] as const) {
    await sql`
      update folders set system = ${system}
      where system is null and lower(name) = lower(${name})
        and not exists (select 1 from folders f where f.account_id = folders.account_id and f.system = ${system})`.execute(
      db,
    );
    await sql`
      insert into folders (account_id, name, system, uidvalidity)
      select a.id, ${name}, ${system}, nextval('folder_uidvalidity_seq')::int from accounts a
      where not exists (select 1 from folders f where f.account_id = a.id and f.system = ${system})`.execute(
      db,
    );
  }

  // A message stored for later (a scheduled send's copy carries its send time) does not move its conversation up
  // before that time comes: the thread's latest time counts only what has arrived (038's trigger, one condition more).
  await sql`
    create or replace function messages_thread_at_raise() returns trigger language plpgsql as $$
    begin
      update messages m set thread_at = t.latest
      from (
        select s.account_id, s.thread_id,
          (select max(x.received_at) from messages x
            where x.account_id = s.account_id and x.thread_id = s.thread_id and not x.draft
              and x.received_at <= now()) as latest
        from (select distinct account_id, thread_id from inserted) s
      ) t
      where m.account_id = t.account_id and m.thread_id = t.thread_id and t.latest is not null
        and m.thread_at is distinct from t.latest;
      return null;
    end $$`.execute(db);

  await sql`alter table messages add column returned_at timestamptz`.execute(db);
  await sql`
    alter table messages add column returned_for text check (returned_for in ('snooze', 'follow_up'))`.execute(
    db,
  );

  await sql`
    create table scheduled_sends (
      id bigserial primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      message_row_id bigint references messages (id) on delete set null,
      purpose text not null check (purpose in ('undo', 'later')),
      state text not null default 'waiting' check (state in ('waiting', 'sent')),
      send_at timestamptz not null,
      blob_hash text not null,
      size integer not null,
      message_id text not null,
      envelope_from text not null,
      recipients jsonb not null,
      source_row_id bigint references messages (id) on delete set null,
      upload_ids bigint[] not null default '{}',
      encrypted boolean not null default false,
      remind_after_days integer,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index scheduled_sends_account on scheduled_sends (account_id, state)`.execute(db);
  await sql`create index scheduled_sends_message on scheduled_sends (message_row_id)`.execute(db);
  await sql`create index scheduled_sends_finished on scheduled_sends (finished_at) where state = 'sent'`.execute(
    db,
  );

  await sql`
    create table snoozes (
      message_row_id bigint primary key references messages (id) on delete cascade,
      account_id bigint not null references accounts (id) on delete cascade,
      thread_id bigint not null,
      return_folder_id bigint references folders (id) on delete set null,
      until timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index snoozes_account_thread on snoozes (account_id, thread_id)`.execute(db);

  await sql`
    create table follow_ups (
      id bigserial primary key,
      account_id bigint not null references accounts (id) on delete cascade,
      message_row_id bigint not null references messages (id) on delete cascade,
      message_id text not null,
      due_at timestamptz not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index follow_ups_account_message on follow_ups (account_id, message_id)`.execute(db);
}
