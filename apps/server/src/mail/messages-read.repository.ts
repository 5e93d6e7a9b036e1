import { sql, type SelectQueryBuilder } from 'kysely';
import type { FolderSystem, Settings } from '@mailroom/protocol';
import type { Database, Db } from '../core/db/index.js';
import type { StoredAttachment } from '../core/db/index.js';
import { listColumns, type ListRow } from './list-items.js';
import { addressCount, aliasRowsCondition, scopeCondition, type Scope } from '../mailbox/index.js';

/** Narrows a messages query to a scope (mail to one address), or leaves it whole. */
export function inView(scope: Scope) {
  return <QB extends SelectQueryBuilder<Database, 'messages' | 'message_contents', object>>(q: QB): QB =>
    scope.kind === 'all' ? q : (q.where(scopeCondition(scope)) as QB);
}

/** How many of these uids of the caller's folder are in the scope. */
export async function countInScope(
  db: Db,
  accountId: number,
  folderId: number,
  uids: number[],
  scope: Scope,
): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select(db.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .where('uid', 'in', uids)
    .where(scopeCondition(scope))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface FolderPageQuery {
  accountId: number;
  folderId: number;
  scope: Scope;
  offset: number;
  limit: number;
  unreadFirst: boolean;
  /** One row per thread: the newest message of the thread in this view. */
  threaded: boolean;
}

/** The caller's folder counters and list settings in one round trip; undefined when not theirs. */
export function folderAndSettings(db: Db, accountId: number, folderId: number) {
  return db
    .selectFrom('folders')
    .innerJoin('accounts', 'accounts.id', 'folders.account_id')
    .select(['folders.id', 'folders.uidnext', 'folders.total_count', 'folders.system', 'accounts.settings'])
    .where('folders.id', '=', folderId)
    .where('folders.account_id', '=', accountId)
    .executeTakeFirst() as Promise<
    | { id: number; uidnext: number; total_count: number; system: FolderSystem | null; settings: Settings }
    | undefined
  >;
}

/**
 * A page of a folder, newest first (unread first when asked), walking `messages_folder_page`
 * (or `messages_folder_unread`) so a page costs its rows, not the folder's size. Threaded, a row
 * is kept only when no newer message of its thread is in the same view (an index probe on
 * `messages_folder_thread` per row), and the threads are placed by their latest message (`thread_at`, any folder)
 * unless unread-first orders them.
 */
export function folderPage(db: Db, q: FolderPageQuery): Promise<ListRow[]> {
  let query = db
    .selectFrom('messages')
    .select(listColumns)
    .where('messages.account_id', '=', q.accountId)
    .where('messages.folder_id', '=', q.folderId);
  query = query.$call(inView(q.scope));
  if (q.threaded) {
    const aliasCondition = q.scope.kind === 'all' ? sql`` : sql`and ${scopeCondition(q.scope, 'newer')}`;
    query = query.where(
      sql<boolean>`not exists (
        select 1 from messages newer
        where newer.folder_id = messages.folder_id and newer.thread_id = messages.thread_id
          and (newer.received_at, newer.id) > (messages.received_at, messages.id) ${aliasCondition}
      )`,
    );
  }
  if (q.unreadFirst) query = query.orderBy('messages.seen', 'asc');
  // Conversations by their latest message in any folder (a reply in Sent moves its thread up): messages_folder_thread_at.
  else if (q.threaded)
    return query
      .orderBy('messages.thread_at', 'desc')
      .orderBy('messages.id', 'desc')
      .limit(q.limit)
      .offset(q.offset)
      .execute() as Promise<ListRow[]>;
  return query
    .orderBy('messages.received_at', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(q.limit)
    .offset(q.offset)
    .execute() as Promise<ListRow[]>;
}

/**
 * Counting queries are scoped to the account through the folder row (one probe) rather than a
 * filter on messages.account_id, so they can be index-only scans of the folder's index entries.
 */
const folderIsTheCallers = (q: FolderPageQuery) =>
  sql<boolean>`exists (select 1 from folders where folders.id = ${q.folderId} and folders.account_id = ${q.accountId})`;

/** Messages in the view: the folder's counter unless an alias narrows it (then a partial-index count). */
export async function countMessages(db: Db, q: FolderPageQuery, folderTotal: number): Promise<number> {
  if (q.scope.kind === 'all') return folderTotal;
  if (q.scope.kind === 'none') return 0;
  const { n } = await db
    .selectFrom('messages')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('folder_id', '=', q.folderId)
    .where(aliasRowsCondition(q.scope))
    .where(folderIsTheCallers(q))
    .executeTakeFirstOrThrow();
  return addressCount(q.scope, folderTotal, n);
}

/** Threads in the view (the rows a threaded list pages through): distinct over (folder_id, thread_id). */
export async function countThreads(db: Db, q: FolderPageQuery): Promise<number> {
  let threads = db
    .selectFrom('messages')
    .select('thread_id')
    .distinct()
    .where('folder_id', '=', q.folderId)
    .where(folderIsTheCallers(q));
  if (q.scope.kind !== 'all') threads = threads.where(scopeCondition(q.scope));
  const { n } = await db
    .selectFrom(threads.as('t'))
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return n;
}

export interface ThreadMemberRow {
  id: number;
  uid: number;
  folder_id: number;
  thread_id: number;
  subject: string;
  from_email: string;
  from_name: string;
  received_at: Date;
  sent_at: Date | null;
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  labels: number[];
}

/** How many members of one chain a list or a message shows; a huge chain is cut, not loaded whole. */
export const THREAD_MEMBERS_MAX = 100;

/** The members of these threads across the account's folders, newest first, at most THREAD_MEMBERS_MAX + 1 each. */
export async function threadMembers(
  db: Db,
  accountId: number,
  threadIds: number[],
  scope: Scope,
): Promise<ThreadMemberRow[]> {
  if (!threadIds.length) return [];
  const aliasCondition = scope.kind === 'all' ? sql`` : sql`and ${scopeCondition(scope)}`;
  const { rows } = await sql<ThreadMemberRow>`
    select m.id, m.uid, m.folder_id, m.thread_id, m.subject, m.from_email, m.from_name, m.received_at,
      m.sent_at, m.seen, m.flagged, m.draft, m.labels
    from unnest(${sql.val(threadIds)}::bigint[]) as t(thread_id)
    cross join lateral (
      select id, uid, folder_id, thread_id, subject, from_email, from_name, seen, flagged, draft, labels, received_at,
        sent_at
      from messages
      where account_id = ${accountId} and thread_id = t.thread_id ${aliasCondition}
      order by received_at desc, id desc
      limit ${THREAD_MEMBERS_MAX + 1}
    ) m
    order by m.received_at desc, m.id desc
  `.execute(db);
  return rows;
}

export interface MessageRow extends ListRow {
  message_id: string | null;
  attachments: StoredAttachment[];
  body_text: string;
  body_html: string | null;
  verdict: Record<string, unknown> | null;
  /** The system role of the folder it is in (the reader shows Snoozed's time, Junk's images held back). */
  folder_system: FolderSystem | null;
}

const messageColumns = [
  ...listColumns,
  'messages.message_id',
  'messages.attachments',
  'message_contents.body_text',
  'message_contents.body_html',
  'message_contents.verdict',
] as const;

/** One of the caller's messages by folder and UID. */
export function messageByUid(db: Db, accountId: number, scope: Scope, folderId: number, uid: number) {
  return db
    .selectFrom('messages')
    .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
    .select(messageColumns)
    .select((eb) =>
      eb
        .selectFrom('folders')
        .select('folders.system')
        .whereRef('folders.id', '=', 'messages.folder_id')
        .as('folder_system'),
    )
    .where('messages.account_id', '=', accountId)
    .where('messages.folder_id', '=', folderId)
    .where('messages.uid', '=', uid)
    .$call(inView(scope))
    .executeTakeFirst() as Promise<MessageRow | undefined>;
}

/** The caller's newest copy of a message by its Message-ID. */
export function messageByMessageId(db: Db, accountId: number, scope: Scope, messageId: string) {
  return db
    .selectFrom('messages')
    .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
    .select(messageColumns)
    .select((eb) =>
      eb
        .selectFrom('folders')
        .select('folders.system')
        .whereRef('folders.id', '=', 'messages.folder_id')
        .as('folder_system'),
    )
    .where('messages.account_id', '=', accountId)
    .where('messages.message_id', '=', messageId)
    .$call(inView(scope))
    .orderBy('messages.received_at', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(1)
    .executeTakeFirst() as Promise<MessageRow | undefined>;
}

/** A message's attachment list and raw blob, by folder and UID, for the caller only. */
export function attachmentsOf(db: Db, accountId: number, scope: Scope, folderId: number, uid: number) {
  return db
    .selectFrom('messages')
    .select(['messages.attachments', 'messages.blob_hash'])
    .where('messages.account_id', '=', accountId)
    .where('messages.folder_id', '=', folderId)
    .where('messages.uid', '=', uid)
    .$call(inView(scope))
    .executeTakeFirst();
}
