import { sql, type Kysely } from 'kysely';

/**
 * The thread's latest time (038, 041) raised thread by thread through the (account_id, thread_id) index. The one
 * UPDATE … FROM over the statement's inserted rows was planned as a hash join over a sequential scan of messages (the
 * transition table's size unknown to the planner): once per store statement, so an import of 200-message batches
 * read the whole table every batch — 45 ms at 57,000 messages, growing with the mailbox (issue 33's 100k run).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function messages_thread_at_raise() returns trigger language plpgsql as $$
    declare
      t record;
    begin
      for t in
        select s.account_id, s.thread_id,
          (select max(x.received_at) from messages x
            where x.account_id = s.account_id and x.thread_id = s.thread_id and not x.draft
              and x.received_at <= now()) as latest
        from (select distinct account_id, thread_id from inserted) s
      loop
        continue when t.latest is null;
        update messages m set thread_at = t.latest
        where m.account_id = t.account_id and m.thread_id = t.thread_id and m.thread_at is distinct from t.latest;
      end loop;
      return null;
    end $$`.execute(db);
}
