import type { MailEvent } from '@mailroom/protocol';
import type { Db, StoredAttachment, Trx } from '../core/db/index.js';
import { composeSourceRow, setAnswered } from './compose.repository.js';
import { systemFolder } from './folders.repository.js';
import { lockAccount, lockFolders, lockMessages } from './mailbox.repository.js';
import { purgeLocked } from './purge.js';
import type { Scope } from './scope.js';

/** What the sending area needs of a message it answers, forwards or replaces. */
export interface ComposeSourceMessage {
  id: number;
  messageId: string | null;
  references: string[];
  attachments: StoredAttachment[];
  /** The raw message's blob, which holds its attachments' bytes. */
  blobHash: string;
}

/**
 * One of the account's messages by folder and UID, within the session's scope (an alias-only
 * session sees only mail of its address, addresses' scopeOf); undefined for anyone else's.
 */
export async function findComposeSource(
  db: Db,
  accountId: number,
  scope: Scope,
  folderId: number,
  uid: number,
): Promise<ComposeSourceMessage | undefined> {
  const row = await composeSourceRow(db, accountId, folderId, uid, scope);
  return row
    ? {
        id: row.id,
        messageId: row.message_id,
        references: row.reference_ids,
        attachments: row.attachments,
        blobHash: row.blob_hash,
      }
    : undefined;
}

/**
 * Removes a draft of the caller's Drafts folder for good (a saved draft replaced, or sent):
 * counters and quota given back, events returned for after the commit. A uid that is not (or
 * no longer) a draft in the session's view removes nothing: another tab may have sent it.
 */
export async function discardDraft(
  trx: Trx,
  accountId: number,
  scope: Scope,
  uid: number,
): Promise<MailEvent[]> {
  const drafts = await systemFolder(trx, accountId, 'draft');
  const visible = await findComposeSource(trx, accountId, scope, drafts.id, uid);
  if (!visible) return [];
  await lockAccount(trx, accountId);
  await lockFolders(trx, accountId, [drafts.id]);
  const messages = await lockMessages(trx, accountId, drafts.id, [uid]);
  return (await purgeLocked(trx, accountId, drafts.id, messages)).events;
}

/** Sets \Answered on a message that was just replied to; the store event when it changed. */
export async function markAnswered(db: Db, accountId: number, messageId: number): Promise<MailEvent[]> {
  const row = await setAnswered(db, accountId, messageId);
  return row ? [{ event: 'store', folder_id: row.folder_id, uids: [row.uid] }] : [];
}
