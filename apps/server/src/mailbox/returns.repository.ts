import { sql } from 'kysely';
import type { Db, Trx } from '../core/db/index.js';

/**
 * The SQL of what waits for a time in the store (migration 041): snoozes (a message put away until a time, and the
 * folder it returns to) and follow-ups (a sent message that comes back when no reply came), and the marks a message
 * that came back carries.
 */

/**
 * The messages named (folder and uids) and the rest of their conversations in the same folders (a conversation
 * snoozes whole): each row's id, place and thread, in one read.
 */
export async function threadMates(
  trx: Trx,
  accountId: number,
  groups: { folder_id: number; message_uids: number[] }[],
) {
  const folders = groups.flatMap((g) => g.message_uids.map(() => g.folder_id));
  const uids = groups.flatMap((g) => g.message_uids);
  const { rows } = await sql<{
    id: string | number;
    folder_id: string | number;
    uid: number;
    thread_id: string | number;
  }>`
    select id, folder_id, uid, thread_id from messages
    where account_id = ${accountId} and folder_id = any(${groups.map((g) => g.folder_id)}::bigint[])
      and thread_id in (
        select distinct m.thread_id from messages m
        join unnest(${folders}::bigint[], ${uids}::int[]) as n(folder_id, uid)
          on m.folder_id = n.folder_id and m.uid = n.uid
        where m.account_id = ${accountId})`.execute(trx);
  return rows.map((r) => ({
    id: Number(r.id),
    folder_id: Number(r.folder_id),
    uid: r.uid,
    thread_id: Number(r.thread_id),
  }));
}

/** The rows of locked messages by uid (their row id and thread). */
export async function messageRows(trx: Trx, accountId: number, folderId: number, uids: number[]) {
  return trx
    .selectFrom('messages')
    .select(['id', 'uid', 'thread_id'])
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .where('uid', '=', sql<number>`any(${uids}::int[])`)
    .execute();
}

/** Keeps (or moves to a new time) the snoozes of messages now in Snoozed; a re-snooze keeps where it returns. */
export async function putSnoozes(
  trx: Trx,
  rows: { message_row_id: number; account_id: number; thread_id: number; return_folder_id: number | null }[],
  until: Date,
): Promise<void> {
  if (!rows.length) return;
  await sql`
    insert into snoozes (message_row_id, account_id, thread_id, return_folder_id, until)
    select * , ${until}::timestamptz from unnest(${rows.map((r) => r.message_row_id)}::bigint[],
      ${rows.map((r) => r.account_id)}::bigint[], ${rows.map((r) => r.thread_id)}::bigint[],
      ${rows.map((r) => r.return_folder_id)}::bigint[])
    on conflict (message_row_id) do update set until = excluded.until`.execute(trx);
}

/**
 * Takes the snoozes that end now — those due by `until`, or of the messages named, or in the conversations named —
 * and answers where each message is now and where it returns (the Inbox when its folder is gone). Locked with the
 * rows, so two processes never return one message twice.
 */
export async function takeSnoozes(
  trx: Trx,
  accountId: number,
  which: { dueBy: Date } | { messageIds: number[] } | { threadIds: number[] },
) {
  const { rows } = await sql<{
    message_row_id: number;
    folder_id: number;
    uid: number;
    return_folder_id: number | null;
  }>`
    with taken as (
      delete from snoozes s
      where s.account_id = ${accountId}
        and ${
          'dueBy' in which
            ? sql`s.until <= ${which.dueBy}`
            : 'messageIds' in which
              ? sql`s.message_row_id = any(${which.messageIds}::bigint[])`
              : sql`s.thread_id = any(${which.threadIds}::bigint[])`
        }
      returning s.message_row_id, s.return_folder_id
    )
    select t.message_row_id, m.folder_id, m.uid, f.id as return_folder_id
    from taken t
    join messages m on m.id = t.message_row_id
    left join folders f on f.id = t.return_folder_id and f.account_id = ${accountId}
    order by m.id`.execute(trx);
  return rows.map((r) => ({ ...r, message_row_id: Number(r.message_row_id) }));
}

/** When each snoozed message of `ids` comes back (the Snoozed folder's list and the reader show it). */
export async function snoozedUntil(db: Db, ids: number[]): Promise<Map<number, Date>> {
  if (!ids.length) return new Map();
  const rows = await db
    .selectFrom('snoozes')
    .select(['message_row_id', 'until'])
    .where('message_row_id', '=', sql<number>`any(${ids}::bigint[])`)
    .execute();
  return new Map(rows.map((r) => [Number(r.message_row_id), r.until]));
}

/** Accounts with snoozes or follow-ups due by `at`, at most `limit` (the due-item poll). */
export async function accountsWithReturnsDue(db: Db, at: Date, limit: number): Promise<number[]> {
  const { rows } = await sql<{ account_id: number }>`
    (select account_id from snoozes where until <= ${at} limit ${limit})
    union
    (select account_id from follow_ups where due_at <= ${at} limit ${limit})`.execute(db);
  return rows.map((r) => Number(r.account_id));
}

/**
 * Marks messages that came back: arrived now (the top of their folder), why, and their conversations placed at
 * now as well (`thread_at`, which 038's trigger keeps on insert only).
 */
export async function markReturned(
  trx: Trx,
  accountId: number,
  ids: number[],
  reason: 'snooze' | 'follow_up' | null,
): Promise<void> {
  if (!ids.length) return;
  const named = sql`m.id = any(${ids}::bigint[])`;
  await sql`
    update messages m set
      received_at = case when ${named} then now() else m.received_at end,
      returned_at = case when ${named} then ${reason ? sql`now()` : sql`null`} else m.returned_at end,
      returned_for = case when ${named} then ${reason}::text else m.returned_for end,
      thread_at = greatest(m.thread_at, now())
    where m.account_id = ${accountId}
      and m.thread_id in (select thread_id from messages where id = any(${ids}::bigint[]))
      and (${named} or m.thread_at < now())`.execute(trx);
}

/**
 * markReturned(…, null) for messages of several accounts at once: scheduled copies that went now, placed at this
 * moment, their conversations brought up to it.
 */
export async function markReleased(trx: Trx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const named = sql`m.id = any(${ids}::bigint[])`;
  await sql`
    update messages m set
      received_at = case when ${named} then now() else m.received_at end,
      returned_at = case when ${named} then null else m.returned_at end,
      returned_for = case when ${named} then null else m.returned_for end,
      thread_at = greatest(m.thread_at, now())
    where (m.account_id, m.thread_id) in (
        select distinct account_id, thread_id from messages where id = any(${ids}::bigint[]))
      and (${named} or m.thread_at < now())`.execute(trx);
}

/** A follow-up: the sent message (its row and Message-ID) comes back at `dueAt` unless a reply comes first. */
export async function insertFollowUp(
  trx: Db | Trx,
  row: { account_id: number; message_row_id: number; message_id: string; due_at: Date },
): Promise<void> {
  await trx.insertInto('follow_ups').values(row).execute();
}

/** Takes the account's follow-ups due by `at` whose sent message still exists. */
export async function takeFollowUps(trx: Trx, accountId: number, at: Date) {
  const { rows } = await sql<{ message_row_id: number }>`
    delete from follow_ups where account_id = ${accountId} and due_at <= ${at}
    returning message_row_id`.execute(trx);
  return rows.map((r) => Number(r.message_row_id));
}

/**
 * After new mail is stored (ingest, for all its accounts at once, one statement): the follow-ups it answers
 * (`answers`, Message-IDs) end, and the conversations among `arrived` that hold a snoozed message are answered.
 */
export async function arrivalReturns(
  db: Db,
  arrived: { accountId: number; threadIds: number[] }[],
  answers: string[],
): Promise<{ accountId: number; threadId: number }[]> {
  const accounts = arrived.flatMap((a) => a.threadIds.map(() => a.accountId));
  const threads = arrived.flatMap((a) => a.threadIds);
  const { rows } = await sql<{ account_id: string | number; thread_id: string | number }>`
    with answered as (
      delete from follow_ups
      where ${answers.length ? sql`account_id = any(${arrived.map((a) => a.accountId)}::bigint[]) and message_id = any(${answers}::text[])` : sql`false`}
    )
    select distinct s.account_id, s.thread_id
    from unnest(${accounts}::bigint[], ${threads}::bigint[]) as a(account_id, thread_id)
    join snoozes s on s.account_id = a.account_id and s.thread_id = a.thread_id`.execute(db);
  return rows.map((r) => ({ accountId: Number(r.account_id), threadId: Number(r.thread_id) }));
}

/**
 * A copy of a stored message into `folderId`, unread, as having come back now for `reason` (a follow-up no reply
 * answered): the same bytes (the blob is shared), its text and search entry copied, the quota charged (not
 * enforced: the member asked for it). The folder's row is updated here: the caller holds the account lock.
 */
export async function copyMessageRow(
  trx: Trx,
  accountId: number,
  sourceId: number,
  folderId: number,
  reason: 'follow_up',
) {
  const { rows } = await sql<{ id: number; uid: number; unread_count: number; total_count: number }>`
    with src as (select * from messages where id = ${sourceId} and account_id = ${accountId}),
    charged as (
      update accounts set quota_used_bytes = quota_used_bytes + (select size from src)
      where id = ${accountId} and exists (select 1 from src)
      returning id
    ),
    folder as (
      update folders set uidnext = uidnext + 1, total_count = total_count + 1, unread_count = unread_count + 1
      where id = ${folderId} and account_id = ${accountId} and exists (select 1 from charged)
      returning id, uidnext - 1 as uid, unread_count, total_count
    ),
    message as (
      insert into messages (
        account_id, folder_id, uid, thread_id, blob_hash, size, message_id, in_reply_to, reference_ids, subject,
        thread_subject, from_email, from_name, addresses, preview, attachments, has_attachments, seen, flagged,
        answered, draft, labels, encrypted, alias_id, sent_at, received_at, returned_at, returned_for
      )
      select ${accountId}::bigint, folder.id, folder.uid, src.thread_id, src.blob_hash, src.size, src.message_id,
        src.in_reply_to, src.reference_ids, src.subject, src.thread_subject, src.from_email, src.from_name,
        src.addresses, src.preview, src.attachments, src.has_attachments, false, src.flagged, src.answered, false,
        src.labels, src.encrypted, src.alias_id, src.sent_at, now(), now(), ${reason}
      from src, folder
      returning id, uid
    ),
    contents as (
      insert into message_contents (message_id, account_id, body_text, body_html, verdict, search_vector)
      select message.id, ${accountId}::bigint, c.body_text, c.body_html, c.verdict, c.search_vector
      from message, message_contents c where c.message_id = ${sourceId}
    )
    select message.id, message.uid, folder.unread_count, folder.total_count from message, folder`.execute(
    trx,
  );
  return rows[0] ? { ...rows[0], id: Number(rows[0].id) } : undefined;
}

/** When the account's next snooze or follow-up is due (null: none waits). */
export async function nextReturnAt(db: Db, accountId: number): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | null }>`
    select least(
      (select min(until) from snoozes where account_id = ${accountId}),
      (select min(due_at) from follow_ups where account_id = ${accountId})
    ) as at`.execute(db);
  return rows[0]?.at ? new Date(rows[0].at) : null;
}

/** Where a message row is now (its folder and uid), if it still exists in the account. */
/**
 * The rows among `ids` that are in one of `folderIds` (the accounts' Scheduled folders, locked), locked in id order,
 * with their account and place.
 */
export async function lockMessagesIn(trx: Trx, ids: number[], folderIds: number[]) {
  if (!ids.length || !folderIds.length) return [];
  const { rows } = await sql<{
    id: string | number;
    account_id: string | number;
    folder_id: string | number;
    uid: number;
    seen: boolean;
  }>`
    select id, account_id, folder_id, uid, seen from messages
    where id = any(${ids}::bigint[]) and folder_id = any(${folderIds}::bigint[])
    order by id for update`.execute(trx);
  return rows.map((r) => ({
    id: Number(r.id),
    account_id: Number(r.account_id),
    folder_id: Number(r.folder_id),
    uid: r.uid,
    seen: r.seen,
  }));
}

export async function messagePlace(db: Db | Trx, accountId: number, id: number) {
  return db
    .selectFrom('messages')
    .innerJoin('folders', 'folders.id', 'messages.folder_id')
    .select(['messages.folder_id', 'messages.uid', 'folders.system'])
    .where('messages.account_id', '=', accountId)
    .where('messages.id', '=', id)
    .executeTakeFirst();
}

/** A copy that goes back to Drafts becomes a draft again (seen, \\Draft). */
export async function markDraft(trx: Trx, id: number): Promise<void> {
  await trx.updateTable('messages').set({ draft: true, seen: true }).where('id', '=', id).execute();
}
