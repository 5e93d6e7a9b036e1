import { sql } from 'kysely';
import type { FolderSystem, MailEvent } from '@mailroom/protocol';
import { insertBlobSql, type BlobRow, type BlobStore, type SpooledFile } from '../core/blobs/index.js';
import { transact, type Db } from '../core/db/index.js';
import type { StoredAttachment } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { previewOf, type ParsedMessage } from './parse/message-text.js';
import { threadIdSql, threadSubject } from './threads.js';
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
  charged: boolean;
  folder_found: boolean;
  folder_id: number | null;
  uid: number | null;
  unread_count: number | null;
  total_count: number | null;
  id: number | null;
  thread_id: number | null;
  snoozed: boolean;
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
  const { parsed } = input;
  // The blob store may keep blobs in this same database: inside a transaction its write would wait for a
  // connection the transaction holds (embedded PGlite has one), so a caller in a transaction writes them first.
  if (!input.blobs && db.isTransaction)
    throw new Error('storeMessage in a transaction needs its blobs stored first');
  const { raw, rawRow } = input.blobs ?? (await putMessageBlobs(blobs, input.raw));
  const attachments: StoredAttachment[] = parsed.attachments.map((a, index) => ({
    id: index + 1,
    name: a.name,
    size: a.size,
    content_type: a.contentType,
    part: a.part,
    content_id: a.contentId,
    inline: a.inline,
  }));
  const seen = input.flags?.seen ?? false;
  const from = parsed.addresses.from?.[0];
  const accountId = input.accountId;
  const folderMatch =
    'folderId' in input
      ? sql`account_id = ${accountId} and id = ${input.folderId}`
      : sql`account_id = ${accountId} and system = ${input.systemFolder}`;
  const since = input.skipIfStoredSince;
  const answers = input.arrival?.answers ?? [];

  // One round trip instead of one per step. The quota charge waits for nothing but its own row
  // lock and re-checks the limit on the latest row, the folder's UID is taken only once charged,
  // and the rows are inserted only from the folder's update: a quota refusal changes nothing, and
  // the folder row stays locked from UID allocation to commit, so UIDs follow commit order. The
  // thread is found in the same statement (a few index lookups while the folder row is locked cost
  // less than a round trip of their own), and a blob not written yet is written with the message.
  const statement = sql<StoreRow>`
    with target as (select id from folders where ${folderMatch}),
    dup as (
      select 1 from messages
      where ${since ? sql`account_id = ${accountId} and blob_hash = ${raw.hash} and received_at > ${since}::timestamptz` : sql`false`}
      limit 1
    ),
    charged as (
      update accounts set quota_used_bytes = quota_used_bytes + ${raw.size}::bigint
      where id = ${accountId}
        and exists (select 1 from target)
        and not exists (select 1 from dup)
        ${input.enforceQuota === false ? sql`` : sql`and quota_used_bytes + ${raw.size}::bigint <= quota_limit_bytes`}
      returning id
    ),
    folder as (
      update folders
      set uidnext = uidnext + 1, total_count = total_count + 1, unread_count = unread_count + ${seen ? 0 : 1}::int
      where ${folderMatch} and exists (select 1 from charged)
      returning id, uidnext - 1 as uid, unread_count, total_count
    ),
    message as (
      insert into messages (
        account_id, folder_id, uid, thread_id,
        blob_hash, size, message_id, in_reply_to, reference_ids, subject, thread_subject,
        from_email, from_name, addresses, preview, attachments, has_attachments,
        seen, flagged, answered, draft, labels, encrypted, alias_id, sent_at
        ${input.receivedAt ? sql`, received_at` : sql``}
      )
      select
        ${accountId}::bigint, folder.id, folder.uid, ${threadIdSql(accountId, parsed)},
        ${raw.hash}::text, ${raw.size}::bigint, ${parsed.messageId}::text, ${parsed.inReplyTo}::text,
        ${parsed.references.slice(0, 100)}::text[], ${parsed.subject.slice(0, 2000)}::text,
        ${threadSubject(parsed.subject)}::text, ${from?.email ?? ''}::text, ${from?.name ?? ''}::text,
        ${JSON.stringify(parsed.addresses)}::jsonb, ${previewOf(parsed.text)}::text,
        ${JSON.stringify(attachments)}::jsonb, ${attachments.some((a) => !a.inline)}::boolean,
        ${seen}::boolean, ${input.flags?.flagged ?? false}::boolean, ${input.flags?.answered ?? false}::boolean,
        ${input.flags?.draft ?? false}::boolean, ${input.labels ?? []}::bigint[], ${input.encrypted ?? false}::boolean,
        ${input.aliasId ?? null}::bigint, ${parsed.sentAt}::timestamptz
        ${input.receivedAt ? sql`, ${input.receivedAt}::timestamptz` : sql``}
      from folder
      returning id, account_id, thread_id
    ),
    contents as (
      insert into message_contents (message_id, account_id, body_text, body_html, verdict, search_vector)
      select message.id, message.account_id, ${parsed.text}::text, ${parsed.html}::text,
        ${input.verdict ? JSON.stringify(input.verdict) : null}::jsonb, ${searchVectorSql({
          subject: parsed.subject,
          from: parsed.addresses.from ?? [],
          to: [...(parsed.addresses.to ?? []), ...(parsed.addresses.cc ?? [])],
          body: parsed.text,
        })}
      from message
    )
    ${rawRow ? sql`, blob as (${insertBlobSql(raw.hash, rawRow, sql`exists (select 1 from message)`)})` : sql``}
    ${
      answers.length
        ? sql`, answered as (
            delete from follow_ups
            where exists (select 1 from message) and account_id = ${accountId}
              and message_id = any(${answers}::text[])
          )`
        : sql``
    }
    select
      exists (select 1 from dup) as duplicate,
      exists (select 1 from charged) as charged,
      exists (select 1 from target) as folder_found,
      folder.id as folder_id, folder.uid, folder.unread_count, folder.total_count,
      message.id, message.thread_id,
      ${
        input.arrival
          ? sql`exists (select 1 from snoozes s where s.account_id = message.account_id and s.thread_id = message.thread_id)`
          : sql`false`
      } as snoozed
    from (select 1) as one
    left join folder on true
    left join message on true`;

  const run = async (trx: Db): Promise<StoreMessageResult | null> => {
    const row = (await statement.execute(trx)).rows[0]!;
    if (row.duplicate) return null;
    if (!row.folder_found) throw new DomainError('request_folder_not_found');
    if (!row.charged) throw new DomainError('quota_exceeded');
    // Only when the folder went away between the check and the update: the caller's transaction
    // (always one here, see below) rolls the charge back.
    if (row.id === null || row.folder_id === null || row.uid === null) {
      throw new DomainError('request_folder_not_found');
    }
    const folderId = row.folder_id;
    const message = { id: row.id, uid: row.uid, folderId, threadId: row.thread_id! };
    const events: MailEvent[] = [
      { event: 'new', folder_id: folderId, uids: [row.uid] },
      { event: 'updateMailbox', folder_id: folderId, unseen: row.unread_count!, total: row.total_count! },
    ];
    return { message, events, ...(input.arrival ? { snoozed: row.snoozed } : {}) };
  };
  // The statement is atomic on its own. A system folder can never be deleted, so outside a
  // transaction it either stores everything or nothing; a user folder could vanish between the
  // check and the update, which a transaction makes harmless.
  if (db.isTransaction || !('folderId' in input)) return run(db);
  return transact(db, run);
}
