import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';

/** Accounts with unseen mail in their Inbox that arrived after `since` (the wallet's new-mail notices). */
export async function accountsWithNewInboxMail(db: Db, since: Date, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('messages as m')
    .innerJoin('folders as f', (join) => join.onRef('f.id', '=', 'm.folder_id').on('f.system', '=', 'inbox'))
    .select('m.account_id')
    .distinct()
    .where('m.seen', '=', false)
    .where('m.received_at', '>', since)
    .orderBy('m.account_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.account_id);
}

/** How many unseen Inbox messages of the account arrived after `since`, and the senders of the newest few. */
export async function newInboxMail(
  db: Db,
  accountId: number,
  since: Date,
  senders = 3,
): Promise<{ count: number; senders: string[] }> {
  const { rows } = await sql<{ count: string | number; senders: string[] | null }>`
    with fresh as (
      select m.from_name, m.from_email, m.received_at
      from messages m join folders f on f.id = m.folder_id and f.system = 'inbox'
      where m.account_id = ${accountId} and not m.seen and m.received_at > ${since}
    ), named as (
      select coalesce(nullif(from_name, ''), from_email) as sender, max(received_at) as latest
      from fresh where coalesce(nullif(from_name, ''), from_email) <> '' group by 1
    )
    select (select count(*) from fresh) as count,
      (select array_agg(sender order by latest desc) from (select * from named order by latest desc limit ${senders}) s)
        as senders`.execute(db);
  const row = rows[0];
  return { count: Number(row?.count ?? 0), senders: row?.senders ?? [] };
}
