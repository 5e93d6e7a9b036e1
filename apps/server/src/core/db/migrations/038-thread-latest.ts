import { sql, type Kysely } from 'kysely';

/**
 * A conversation is placed by its latest message (issue 28 item 26): `messages.thread_at`, on every message of a
 * thread, is when the thread's latest message (not a draft) arrived or was sent, in whichever folder it is — a reply
 * filed in Sent moves its conversation up in the Inbox. Kept by triggers, so every writer (ingest, moves and copies,
 * imports, the benches' set-based fills) keeps it: before each insert a row takes its own time; after each insert
 * statement the threads it touched are brought to their latest time, one update per statement. A removal leaves it
 * (a conversation keeps its place when its newest message is deleted). The threaded folder page walks
 * `messages_folder_thread_at` as the plain one walks `messages_folder_page`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages add column thread_at timestamptz`.execute(db);
  await sql`
    update messages m set thread_at = coalesce(t.latest, m.received_at)
    from (
      select account_id, thread_id, max(received_at) filter (where not draft) as latest
      from messages group by account_id, thread_id
    ) t
    where m.account_id = t.account_id and m.thread_id = t.thread_id`.execute(db);
  await sql`alter table messages alter column thread_at set not null`.execute(db);
  await sql`
    create function messages_thread_at_default() returns trigger language plpgsql as $$
    begin
      new.thread_at := coalesce(new.thread_at, new.received_at);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger messages_thread_at_default before insert on messages
    for each row execute function messages_thread_at_default()`.execute(db);
  await sql`
    create function messages_thread_at_raise() returns trigger language plpgsql as $$
    begin
      update messages m set thread_at = t.latest
      from (
        select s.account_id, s.thread_id,
          (select max(x.received_at) from messages x
            where x.account_id = s.account_id and x.thread_id = s.thread_id and not x.draft) as latest
        from (select distinct account_id, thread_id from inserted) s
      ) t
      where m.account_id = t.account_id and m.thread_id = t.thread_id and t.latest is not null
        and m.thread_at is distinct from t.latest;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger messages_thread_at_raise after insert on messages
    referencing new table as inserted
    for each statement execute function messages_thread_at_raise()`.execute(db);
  await sql`create index messages_folder_thread_at on messages (folder_id, thread_at desc, id desc)`.execute(
    db,
  );
}
