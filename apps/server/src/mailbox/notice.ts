import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { BlobStore } from '../core/blobs/index.js';
import { transact, type Db } from '../core/db/index.js';
import { emit, type EventSink } from '../core/events/index.js';
import { putMessageBlobs, storeMessage, type StoreMessageResult } from './store-message.js';
import { parseMessage } from './parse/index.js';

/**
 * Puts a message the service itself writes to a member (a bounce, a notice about their own
 * mail) into their Inbox. Never refused for space: it is about mail they already have. `alongside`
 * runs in the same transaction, so a notice and the state change it reports commit together.
 */
export async function storeNotice(
  db: Db,
  blobs: BlobStore,
  accountId: number,
  raw: Buffer,
  alongside?: (trx: Db) => Promise<void>,
): Promise<StoreMessageResult> {
  const [parsed, stored] = await Promise.all([parseMessage(raw), putMessageBlobs(blobs, raw)]);
  return transact(db, async (trx) => {
    const result = await storeMessage(trx, blobs, {
      accountId,
      systemFolder: 'inbox',
      blobs: stored,
      parsed,
      enforceQuota: false,
    });
    await alongside?.(trx);
    return result;
  });
}

/** What a notice says, to whom (the member's address). */
export interface NoticeText {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** A notice's bytes: from Mailroom <no-reply@MAIL_DOMAIN>, dated now. */
export function composeNotice(mailDomain: string, notice: NoticeText): Promise<Buffer> {
  return new MailComposer({
    from: { name: 'Mailroom', address: `no-reply@${mailDomain}` },
    to: notice.to,
    subject: notice.subject,
    text: notice.text,
    ...(notice.html !== undefined ? { html: notice.html } : {}),
    date: new Date(),
  })
    .compile()
    .build();
}

/** Composes a notice, stores it in the member's Inbox and tells their tabs. */
export async function sendNotice(
  deps: EventSink & { db: Db; blobs: BlobStore },
  mailDomain: string,
  accountId: number,
  notice: NoticeText,
): Promise<void> {
  const raw = await composeNotice(mailDomain, notice);
  const { events } = await storeNotice(deps.db, deps.blobs, accountId, raw);
  await emit(deps.db, deps, accountId, events);
}
