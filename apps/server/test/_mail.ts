import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { BlobStore } from '../src/core/blobs/index.js';
import type { Db } from '../src/core/db/index.js';
import { parseMessage, storeMessage, systemFolder } from '../src/mailbox/index.js';
import { ensureAccount } from '../src/accounts/index.js';

/** Builds real RFC 5322 bytes with nodemailer's MailComposer. */
export function composeRaw(options: Mail.Options): Promise<Buffer> {
  return new MailComposer({ date: new Date(), ...options }).compile().build();
}

let memberSeq = 100_000_000_000;
/** A provisioned account, as after a first sign-in. */
export async function createAccount(db: Db, name = 'Test User') {
  const memberId = String(memberSeq++ + Math.floor(Math.random() * 1000) * 1_000_000);
  // Sends go at once, as in the other tests (testConfig's UNDO_SEND_DEFAULT_SECONDS).
  const { account } = await ensureAccount(db, {
    memberId,
    name,
    mailDomain: 'mailroom.test',
    undoSendSeconds: 0,
  });
  return account;
}

/** Stores a composed message straight into a folder of the account (Inbox by default). */
export async function deliverTestMessage(
  db: Db,
  blobs: BlobStore,
  accountId: number,
  options: Mail.Options,
  store: { folderId?: number; seen?: boolean; flagged?: boolean; draft?: boolean; receivedAt?: Date } = {},
) {
  const raw = await composeRaw(options);
  const folderId = store.folderId ?? (await systemFolder(db, accountId, 'inbox')).id;
  const { message } = await storeMessage(db, blobs, {
    accountId,
    folderId,
    raw,
    parsed: await parseMessage(raw),
    flags: { seen: store.seen ?? false, flagged: store.flagged ?? false, draft: store.draft ?? false },
    ...(store.receivedAt ? { receivedAt: store.receivedAt } : {}),
  });
  return message;
}
