import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';

export type SenderList = 'allow' | 'block';

export interface SenderListRow {
  entry: string;
  list: SenderList;
  created_at: Date;
}

/** The account's lists, newest first. */
export async function listSenderEntries(db: Db, accountId: number): Promise<SenderListRow[]> {
  return db
    .selectFrom('sender_lists')
    .select(['entry', 'list', 'created_at'])
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('entry')
    .execute();
}

export async function countSenderEntries(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('sender_lists')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Puts entries on a list (an entry on the other list moves): how many were new or moved. */
export async function putSenderEntries(
  db: Db,
  accountId: number,
  list: SenderList,
  entries: string[],
): Promise<number> {
  if (!entries.length) return 0;
  const result = await sql<{ entry: string }>`
    insert into sender_lists (account_id, entry, list)
    select ${accountId}::bigint, e, ${list}::text from unnest(${entries}::text[]) as e
    on conflict (account_id, entry) do update set list = excluded.list, created_at = now()
      where sender_lists.list <> excluded.list
    returning entry`.execute(db);
  return result.rows.length;
}

export async function deleteSenderEntry(db: Db, accountId: number, entry: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sender_lists')
    .where('account_id', '=', accountId)
    .where('entry', '=', entry)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * The list a sender is on: its address, else its domain or a parent domain (the most specific entry wins), or null.
 */
export async function senderListOf(db: Db, accountId: number, address: string): Promise<SenderList | null> {
  const keys = senderKeys(address);
  if (!keys.length) return null;
  const rows = await db
    .selectFrom('sender_lists')
    .select(['entry', 'list'])
    .where('account_id', '=', accountId)
    .where('entry', 'in', keys)
    .execute();
  for (const key of keys) {
    const row = rows.find((r) => r.entry === key);
    if (row) return row.list;
  }
  return null;
}

/** An address and its domains, most specific first: a@mail.example.com, mail.example.com, example.com. */
export function senderKeys(address: string): string[] {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1) return [];
  const labels = email.slice(at + 1).split('.');
  const domains = labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
  return [email, ...domains].slice(0, 10);
}
