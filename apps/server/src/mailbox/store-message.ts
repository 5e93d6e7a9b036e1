import { sql, type RawBuilder } from 'kysely';
import type { FolderSystem, MailEvent } from '@mailroom/protocol';
import { insertBlobSql, type BlobRow, type BlobStore, type SpooledFile } from '../core/blobs/index.js';
import { transact, type Db } from '../core/db/index.js';
import type { StoredAttachment } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { previewOf, type ParsedMessage } from './parse/message-text.js';
import { batchThreads, threadIdSql, threadSubject } from './threads.js';
import { searchVectorSql } from './search-vector.js';
import type { MessageVerdict } from './verdict.js';

/** A stored blob: what `BlobStore.put` returns. */
export interface BlobRef {
  hash: string;
  size: number;
}

/** The blobs of one message: its raw bytes, which hold its attachments too (as byte ranges). */
export interface MessageBlobs {
  raw: BlobRef;
  /**
   * The raw blob's row when it is not written yet (messageBlobsFor: a small blob the store keeps in the database):
   * the statement that stores a copy writes it, so the blob commits with the message.
   */
  rawRow?: BlobRow;
}

type StoreMessageFields = {
  accountId: number;
  parsed: ParsedMessage;
  flags?: { seen?: boolean; flagged?: boolean; draft?: boolean; answered?: boolean };
  labels?: number[];
  aliasId?: number | null;
  receivedAt?: Date;
  encrypted?: boolean;
  /** What the receiving path found out about the message (SPF, DKIM, DMARC, spam): the reader shows it. */
  verdict?: MessageVerdict;
  /** False for copies that must not be refused for space (a bounce to the sender); default true. */
  enforceQuota?: boolean;
  /**
   * Mail arriving (ingest): the follow-ups of the messages it answers end (issue 31) in the same statement, and the
   * result says whether its conversation has snoozed messages (`snoozed`: they wake, afterArrival).
   */
  arrival?: { answers: string[] };
} & (
  | { raw: Buffer; blobs?: undefined }
  /** Already stored with `putMessageBlobs`: required in a transaction (blobs are written before it). */
  | { raw?: Buffer; blobs: MessageBlobs }
);

/** Into a folder by id, or into one of the account's system folders (found in the same statement). */
export type StoreMessageInput = StoreMessageFields & ({ folderId: number } | { systemFolder: FolderSystem });

export interface StoredMessage {
  id: number;
  uid: number;
  folderId: number;
  threadId: number;
}

export interface StoreMessageResult {
  message: StoredMessage;
  events: MailEvent[];
  /** With `arrival`: the message's conversation has snoozed messages. */
  snoozed?: boolean;
}

/**
 * Stores the raw message as a blob (fsynced) before any row refers to it. Bytes in memory are
 * written; a spooled file (a received message) is moved in without a copy. Attachments are not
 * stored again: a row keeps each one's range of these bytes (`StoredAttachment.part`).
 */
export async function putMessageBlobs(blobs: BlobStore, raw: Buffer | SpooledFile): Promise<MessageBlobs> {
  return { raw: Buffer.isBuffer(raw) ? await blobs.put(raw) : await blobs.keepSpooled(raw) };
}

/**
 * The blobs of a message that ingest is about to store: as putMessageBlobs, except a small one the store keeps in
 * the database, which is left for the statement storing its first copy to write (`rawRow`): one commit, one sync,
 * for blob and message. A spooled file is then the caller's to discard (its bytes are in memory).
 */
export async function messageBlobsFor(blobs: BlobStore, raw: Buffer | SpooledFile): Promise<MessageBlobs> {
  const pending = await blobs.rowFor?.(raw);
  if (!pending) return putMessageBlobs(blobs, raw);
  return { raw: { hash: pending.hash, size: pending.size }, rawRow: pending.row };
}

interface StoreRow {
  duplicate: boolean;
  charged_accounts: (number | string)[] | null;
  folder_found: boolean;
  ord: number | null;
  folder_id: number | null;
  uid: number | null;
  unread_count: number | null;
  total_count: number | null;
  id: number | null;
  thread_id: number | null;
  snoozed: boolean;
}

/** The copies one statement stores at most (its parameters stay far below the protocol's 65,535). */
const STATEMENT_ROWS = 250;

/** The account whose copy the store refused (quota, a folder gone), and why: the DomainError `cause`. */
export class StoreRefused extends DomainError {
  constructor(
    readonly accountId: number,
    cause: DomainError,
  ) {
    super(cause.code, cause.message);
  }
}

/**
 * Stores one message: blobs first (fsynced), then one statement that charges the quota, takes
 * the folder's next UID, joins a thread and inserts the rows. Returns the events to publish
 * once the caller has committed (the statement commits on its own unless `db` is a transaction).
 *
 * With `skipIfStoredSince`, a message whose bytes the account already received after that time
 * is a sender's retry: nothing is stored and the result is null.
 */
export async function storeMessage(
  db: Db,
  blobs: BlobStore,
  input: StoreMessageInput & { skipIfStoredSince: Date },
): Promise<StoreMessageResult | null>;
export async function storeMessage(
  db: Db,
  blobs: BlobStore,
  input: StoreMessageInput,
): Promise<StoreMessageResult>;
export async function storeMessage(
  db: Db,
  blobs: BlobStore,
  input: StoreMessageInput & { skipIfStoredSince?: Date },
): Promise<StoreMessageResult | null> {
  const { skipIfStoredSince, ...rest } = input;
  const stored = await storeMessages(db, blobs, [rest], skipIfStoredSince ? { skipIfStoredSince } : {});
  if (!stored) return null;
  return stored[0]!;
}

/**
 * Stores many messages (an import's batch, every copy an ingest asks for) as storeMessage stores one, with the same
 * results as storing them one after the other: one statement for all of them (up to STATEMENT_ROWS) — the quota
 * charged per account, the UIDs taken per folder, the rows inserted — after one query finding their threads
 * (batchThreads: they may answer each other, which the statement's own lookups would not see). Every message or
 * none: more than one statement runs in a transaction. A refusal throws StoreRefused (naming the account).
 *
 * `skipIfStoredSince` is for one message (see storeMessage): null when it was stored before.
 */
export async function storeMessages(
  db: Db,
  blobs: BlobStore,
  inputs: StoreMessageInput[],
  options: { skipIfStoredSince?: Date } = {},
): Promise<StoreMessageResult[] | null> {
  if (options.skipIfStoredSince && inputs.length !== 1)
    throw new Error('skipIfStoredSince is for one message');
  // The blob store may keep blobs in this same database: inside a transaction its write would wait for a
  // connection the transaction holds (embedded PGlite has one), so a caller in a transaction writes them first.
  if (db.isTransaction && inputs.some((i) => !i.blobs))
    throw new Error('storeMessage in a transaction needs its blobs stored first');
  const rows: Row[] = [];
  for (const input of inputs)
    rows.push({ input, ...(input.blobs ?? (await putMessageBlobs(blobs, input.raw!))) });
  const statements: Row[][] = [];
  for (let i = 0; i < rows.length; i += STATEMENT_ROWS) statements.push(rows.slice(i, i + STATEMENT_ROWS));
  const run = async (trx: Db): Promise<StoreMessageResult[] | null> => {
    // One message's thread is found by its own statement; a batch's by one query first, for all of them.
    if (rows.length > 1) {
      const threads = await batchThreads(
        trx,
        rows.map(({ input }) => ({
          accountId: input.accountId,
          parsed: input.parsed,
          receivedAt: input.receivedAt,
        })),
      );
      for (const [i, row] of rows.entries()) row.threadId = threads[i]!;
    }
    const results: StoreMessageResult[] = [];
    for (const some of statements) {
      const stored = await storeStatement(trx, some, options.skipIfStoredSince);
      if (!stored) return null;
      results.push(...stored);
    }
    return results;
  };
  // One statement is atomic on its own. A system folder can never be deleted, so outside a transaction it either
  // stores everything or nothing; a user folder could vanish between the check and the update, which a transaction
  // makes harmless.
  if (db.isTransaction || (rows.length <= 1 && inputs.every((i) => !('folderId' in i)))) return run(db);
  return transact(db, run);
}

type Row = { input: StoreMessageInput; threadId?: number } & MessageBlobs;

/** What a stored message's row holds, as the VALUES row of the store statement (every value cast: no guessing). */
function rowValues(ord: number, { input, raw, threadId }: Row): RawBuilder<unknown> {
  const { parsed, accountId } = input;
  const attachments: StoredAttachment[] = parsed.attachments.map((a, index) => ({
    id: index + 1,
    name: a.name,
    size: a.size,
    content_type: a.contentType,
    part: a.part,
    content_id: a.contentId,
    inline: a.inline,
  }));
  const from = parsed.addresses.from?.[0];
  const folder =
    'folderId' in input
      ? sql`${input.folderId}::bigint`
      : sql`(select id from folders where account_id = ${accountId} and system = ${input.systemFolder})`;
  return sql`(
    ${ord}::int, ${accountId}::bigint, ${folder}, ${threadId ?? threadIdSql(accountId, parsed)}::bigint,
    ${raw.hash}::text, ${raw.size}::bigint, ${parsed.messageId}::text, ${parsed.inReplyTo}::text,
    ${parsed.references.slice(0, 100)}::text[], ${parsed.subject.slice(0, 2000)}::text,
    ${threadSubject(parsed.subject)}::text, ${from?.email ?? ''}::text, ${from?.name ?? ''}::text,
    ${JSON.stringify(parsed.addresses)}::jsonb, ${previewOf(parsed.text)}::text,
    ${JSON.stringify(attachments)}::jsonb, ${attachments.some((a) => !a.inline)}::boolean,
    ${input.flags?.seen ?? false}::boolean, ${input.flags?.flagged ?? false}::boolean,
    ${input.flags?.answered ?? false}::boolean, ${input.flags?.draft ?? false}::boolean,
    ${input.labels ?? []}::bigint[], ${input.encrypted ?? false}::boolean, ${input.aliasId ?? null}::bigint,
    ${parsed.sentAt}::timestamptz, ${input.receivedAt ?? null}::timestamptz,
    ${parsed.text}::text, ${parsed.html}::text, ${input.verdict ? JSON.stringify(input.verdict) : null}::jsonb,
    ${searchVectorSql({
      subject: parsed.subject,
      from: parsed.addresses.from ?? [],
      to: [...(parsed.addresses.to ?? []), ...(parsed.addresses.cc ?? [])],
      body: parsed.text,
    })}, ${!!input.arrival}::boolean
  )`;
}

/**
 * One statement storing `rows`, none of which answers another (storeMessages). One round trip instead of one per
 * step. The quota charge waits for nothing but its accounts' row locks and re-checks the limit on the latest row,
 * the folders' UIDs are taken only once every account is charged, and the rows are inserted only from the folders'
 * update: a refusal changes nothing, and the folder rows stay locked from UID allocation to commit, so UIDs follow
 * commit order. The threads are found in the same statement (a few index lookups while the folder rows are locked
 * cost less than a round trip of their own), and a blob not written yet is written with its message.
 */
async function storeStatement(db: Db, rows: Row[], since?: Date): Promise<StoreMessageResult[] | null> {
  // What each account is charged, and what its quota must hold: the sum up to its last copy that is checked (each
  // copy stored alone checks the quota with those before it charged).
  const charges = new Map<number, { size: number; enforced: number | null }>();
  for (const { input, raw } of rows) {
    const charge = charges.get(input.accountId) ?? { size: 0, enforced: null };
    charge.size += raw.size;
    if (input.enforceQuota !== false) charge.enforced = charge.size;
    charges.set(input.accountId, charge);
  }
  const first = rows[0]!;
  const blobRows = new Map<string, BlobRow>();
  for (const { raw, rawRow } of rows) if (rawRow && !blobRows.has(raw.hash)) blobRows.set(raw.hash, rawRow);
  const answers = rows.flatMap(({ input }) =>
    (input.arrival?.answers ?? []).map((answer) => [input.accountId, answer] as const),
  );
  const statement = sql<StoreRow>`
    with input (
      ord, account_id, folder_id, thread_id,
      blob_hash, size, message_id, in_reply_to, reference_ids, subject, thread_subject,
      from_email, from_name, addresses, preview, attachments, has_attachments,
      seen, flagged, answered, draft, labels, encrypted, alias_id, sent_at, received_at,
      body_text, body_html, verdict, search_vector, arrival
    ) as (values ${sql.join(rows.map((row, i) => rowValues(i, row)))}),
    target as (
      select distinct f.id from folders f join input i on f.id = i.folder_id and f.account_id = i.account_id
    ),
    found as (
      select not exists (select 1 from input where folder_id is null)
        and (select count(*) from target) = (select count(distinct folder_id) from input) as ok
    ),
    dup as (
      select 1 from messages
      where ${since ? sql`account_id = ${first.input.accountId} and blob_hash = ${first.raw.hash} and received_at > ${since}::timestamptz` : sql`false`}
      limit 1
    ),
    charged as (
      update accounts a set quota_used_bytes = a.quota_used_bytes + c.size
      from (values ${sql.join(
        [...charges].map(
          ([accountId, c]) => sql`(${accountId}::bigint, ${c.size}::bigint, ${c.enforced}::bigint)`,
        ),
      )}) as c (account_id, size, enforced)
      where a.id = c.account_id
        and (select ok from found)
        and not exists (select 1 from dup)
        and (c.enforced is null or a.quota_used_bytes + c.enforced <= a.quota_limit_bytes)
      returning a.id
    ),
    counts as (
      select folder_id, count(*)::int as n, (count(*) filter (where not seen))::int as unseen
      from input group by folder_id
    ),
    folder as (
      update folders f
      set uidnext = f.uidnext + c.n, total_count = f.total_count + c.n, unread_count = f.unread_count + c.unseen
      from counts c
      where f.id = c.folder_id and (select count(*) from charged) = ${charges.size}
      returning f.id, f.uidnext - c.n as first_uid, f.unread_count - c.unseen as unread_before,
        f.total_count - c.n as total_before
    ),
    placed as (
      select i.*, f.first_uid + (row_number() over w)::int - 1 as uid,
        f.total_before + (row_number() over w)::int as total_after,
        f.unread_before + (count(*) filter (where not i.seen) over w)::int as unread_after
      from input i join folder f on f.id = i.folder_id
      window w as (partition by i.folder_id order by i.ord)
    ),
    message as (
      insert into messages (
        account_id, folder_id, uid, thread_id,
        blob_hash, size, message_id, in_reply_to, reference_ids, subject, thread_subject,
        from_email, from_name, addresses, preview, attachments, has_attachments,
        seen, flagged, answered, draft, labels, encrypted, alias_id, sent_at, received_at
      )
      select
        account_id, folder_id, uid, thread_id,
        blob_hash, size, message_id, in_reply_to, reference_ids, subject, thread_subject,
        from_email, from_name, addresses, preview, attachments, has_attachments,
        seen, flagged, answered, draft, labels, encrypted, alias_id, sent_at, coalesce(received_at, now())
      from placed order by ord
      returning id, account_id, folder_id, uid, thread_id
    ),
    contents as (
      insert into message_contents (message_id, account_id, body_text, body_html, verdict, search_vector)
      select m.id, m.account_id, p.body_text, p.body_html, p.verdict, p.search_vector
      from message m join placed p on p.folder_id = m.folder_id and p.uid = m.uid
    )
    ${
      blobRows.size
        ? sql`, blob as (${insertBlobSql(
            [...blobRows].map(([hash, row]) => ({ hash, ...row })),
            sql`exists (select 1 from message)`,
          )})`
        : sql``
    }
    ${
      answers.length
        ? sql`, answered as (
            delete from follow_ups f
            using (select unnest(${answers.map(([a]) => a)}::bigint[]) as account_id,
              unnest(${answers.map(([, m]) => m)}::text[]) as message_id) x
            where exists (select 1 from message) and f.account_id = x.account_id and f.message_id = x.message_id
          )`
        : sql``
    }
    select
      exists (select 1 from dup) as duplicate,
      (select array_agg(id) from charged) as charged_accounts,
      (select ok from found) as folder_found,
      p.ord, p.folder_id, p.uid, p.unread_after as unread_count, p.total_after as total_count,
      m.id, m.thread_id,
      coalesce(p.arrival and exists (
        select 1 from snoozes s where s.account_id = m.account_id and s.thread_id = m.thread_id
      ), false) as snoozed
    from (select 1) as one
    left join (placed p join message m on m.folder_id = p.folder_id and m.uid = p.uid) on true
    order by p.ord`;

  const result = (await statement.execute(db)).rows;
  const head = result[0]!;
  if (head.duplicate) return null;
  const refused = (code: 'request_folder_not_found' | 'quota_exceeded', accountId: number) =>
    new StoreRefused(accountId, new DomainError(code));
  if (!head.folder_found) throw refused('request_folder_not_found', first.input.accountId);
  const charged = new Set((head.charged_accounts ?? []).map(Number));
  const uncharged = [...charges.keys()].find((a) => !charged.has(a));
  if (uncharged !== undefined) throw refused('quota_exceeded', uncharged);
  // Only when a folder went away between the check and the update: the caller's transaction (always one here, see
  // storeMessages) rolls the charge back.
  if (result.length !== rows.length || result.some((r) => r.id === null || r.uid === null))
    throw refused('request_folder_not_found', first.input.accountId);
  return result.map((row) => {
    const folderId = Number(row.folder_id);
    const message = { id: Number(row.id), uid: row.uid!, folderId, threadId: Number(row.thread_id) };
    const events: MailEvent[] = [
      { event: 'new', folder_id: folderId, uids: [row.uid!] },
      { event: 'updateMailbox', folder_id: folderId, unseen: row.unread_count!, total: row.total_count! },
    ];
    return { message, events, ...(rows[row.ord!]!.input.arrival ? { snoozed: row.snoozed } : {}) };
  });
}
