import { sql } from 'kysely';
import type { MailEvent } from '@mailroom/protocol';
import type { BlobStore } from '../blobs/index.js';
import type { Db } from '../db/index.js';
import type { StoredAttachment } from '../db/schema.js';
import { DomainError } from '../http/errors.js';
import { previewOf, type ParsedMessage } from './parse-message.js';
import { findThread, threadSubject } from './threads.js';
import { searchVectorSql } from './search-vector.js';

export interface StoreMessageInput {
  accountId: number;
  folderId: number;
  raw: Buffer;
  parsed: ParsedMessage;
  flags?: { seen?: boolean; flagged?: boolean; draft?: boolean; answered?: boolean };
  labels?: number[];
  aliasId?: number | null;
  receivedAt?: Date;
  encrypted?: boolean;
  /** False for copies that must not be refused for space (a bounce to the sender); default true. */
  enforceQuota?: boolean;
}

export interface StoredMessage {
  id: number;
  uid: number;
  folderId: number;
  threadId: number;
}

/**
 * Stores one message: blobs first (fsynced), then one transaction that charges the quota,
 * takes the folder's next UID, joins a thread and inserts the rows. Returns the events to
 * publish once the caller has committed (the transaction is ours unless `db` is already one).
 */
export async function storeMessage(
  db: Db,
  blobs: BlobStore,
  input: StoreMessageInput,
): Promise<{ message: StoredMessage; events: MailEvent[] }> {
  const { parsed } = input;
  const raw = await blobs.put(input.raw);
  const attachments: StoredAttachment[] = [];
  for (const [index, a] of parsed.attachments.entries()) {
    const blob = await blobs.put(a.content);
    attachments.push({
      id: index + 1,
      name: a.name,
      size: blob.size,
      content_type: a.contentType,
      blob_hash: blob.hash,
      content_id: a.contentId,
      inline: a.inline,
    });
  }
  const seen = input.flags?.seen ?? false;
  const from = parsed.addresses.from?.[0];

  const run = async (trx: Db) => {
    // Read-only, so it runs before the account and folder row locks below: they serialise every
    // delivery to the mailbox and should be held as briefly as possible.
    const threadId = await findThread(trx, input.accountId, parsed);
    const charged = await trx
      .updateTable('accounts')
      .set({ quota_used_bytes: sql`quota_used_bytes + ${raw.size}` })
      .where('id', '=', input.accountId)
      .$if(input.enforceQuota !== false, (q) =>
        q.where(sql<boolean>`quota_used_bytes + ${raw.size} <= quota_limit_bytes`),
      )
      .returning('id')
      .executeTakeFirst();
    if (!charged) throw new DomainError('quota_exceeded');

    const folder = await trx
      .updateTable('folders')
      .set({
        uidnext: sql`uidnext + 1`,
        total_count: sql`total_count + 1`,
        unread_count: sql`unread_count + ${seen ? 0 : 1}`,
      })
      .where('id', '=', input.folderId)
      .where('account_id', '=', input.accountId)
      .returning([sql<number>`uidnext - 1`.as('uid'), 'unread_count', 'total_count'])
      .executeTakeFirst();
    if (!folder) throw new DomainError('request_folder_not_found');

    const row = await trx
      .insertInto('messages')
      .values({
        account_id: input.accountId,
        folder_id: input.folderId,
        uid: folder.uid,
        ...(threadId !== undefined ? { thread_id: threadId } : {}),
        blob_hash: raw.hash,
        size: raw.size,
        message_id: parsed.messageId,
        in_reply_to: parsed.inReplyTo,
        reference_ids: parsed.references.slice(0, 100),
        subject: parsed.subject.slice(0, 2000),
        thread_subject: threadSubject(parsed.subject),
        from_email: from?.email ?? '',
        from_name: from?.name ?? '',
        addresses: JSON.stringify(parsed.addresses),
        preview: previewOf(parsed.text),
        attachments: JSON.stringify(attachments),
        has_attachments: attachments.some((a) => !a.inline),
        seen,
        flagged: input.flags?.flagged ?? false,
        answered: input.flags?.answered ?? false,
        draft: input.flags?.draft ?? false,
        labels: input.labels ?? [],
        encrypted: input.encrypted ?? false,
        alias_id: input.aliasId ?? null,
        sent_at: parsed.sentAt,
        ...(input.receivedAt ? { received_at: input.receivedAt } : {}),
      })
      .returning(['id', 'thread_id'])
      .executeTakeFirstOrThrow();

    await trx
      .insertInto('message_contents')
      .values({
        message_id: row.id,
        body_text: parsed.text,
        body_html: parsed.html,
        search_vector: searchVectorSql({
          subject: parsed.subject,
          from: parsed.addresses.from ?? [],
          to: [...(parsed.addresses.to ?? []), ...(parsed.addresses.cc ?? [])],
          body: parsed.text,
        }),
      })
      .execute();

    const message = { id: row.id, uid: folder.uid, folderId: input.folderId, threadId: row.thread_id };
    const events: MailEvent[] = [
      { event: 'new', folder_id: input.folderId, uids: [folder.uid] },
      {
        event: 'updateMailbox',
        folder_id: input.folderId,
        unseen: folder.unread_count,
        total: folder.total_count,
      },
    ];
    return { message, events };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
