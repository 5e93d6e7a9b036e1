import type { MailEvent } from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import type { Db } from '../core/db/index.js';
import type { StoredAttachment } from '../core/db/schema.js';
import { systemFolder } from '../mailbox/folders.js';
import {
  adjustCounters,
  deleteMessageRows,
  lockAccount,
  lockFolders,
  lockMessages,
  releaseQuota,
} from '../mailbox/locks.repository.js';
import { sessionView } from './messages-read.service.js';

/** What the sending area needs of a message it answers, forwards or replaces. */
export interface ComposeSourceMessage {
  id: number;
  messageId: string | null;
  references: string[];
  attachments: StoredAttachment[];
}

/**
 * One of the caller's messages by folder and UID, within the session's view (an alias-only
 * session sees only mail of its address); undefined for anyone else's.
 */
export async function findComposeSource(
  db: Db,
  principal: Principal,
  folderId: number,
  uid: number,
): Promise<ComposeSourceMessage | undefined> {
  const view = await sessionView(db, principal);
  let query = db
    .selectFrom('messages')
    .select(['id', 'message_id', 'reference_ids', 'attachments'])
    .where('account_id', '=', principal.accountId)
    .where('folder_id', '=', folderId)
    .where('uid', '=', uid);
  if (view.kind === 'alias') {
    query =
      view.aliasId === null
        ? query.where('alias_id', 'is', null)
        : query.where('alias_id', '=', view.aliasId);
  }
  const row = await query.executeTakeFirst();
  return row
    ? { id: row.id, messageId: row.message_id, references: row.reference_ids, attachments: row.attachments }
    : undefined;
}

/**
 * Removes a draft of the caller's Drafts folder for good (a saved draft replaced, or sent):
 * counters and quota given back, events returned for after the commit. A uid that is not (or
 * no longer) a draft in the session's view removes nothing: another tab may have sent it.
 */
export async function discardDraft(db: Db, principal: Principal, uid: number): Promise<MailEvent[]> {
  const { accountId } = principal;
  const drafts = await systemFolder(db, accountId, 'draft');
  const visible = await findComposeSource(db, principal, drafts.id, uid);
  if (!visible) return [];
  await lockAccount(db, accountId);
  await lockFolders(db, accountId, [drafts.id]);
  const messages = await lockMessages(db, accountId, drafts.id, [uid]);
  if (!messages.length) return [];
  await deleteMessageRows(
    db,
    messages.map((m) => m.id),
  );
  const counts = await adjustCounters(
    db,
    drafts.id,
    -messages.length,
    -messages.filter((m) => !m.seen).length,
  );
  await releaseQuota(
    db,
    accountId,
    messages.reduce((sum, m) => sum + m.size, 0),
  );
  return [
    { event: 'move', folder_id: drafts.id, to_folder_id: null, uids: messages.map((m) => m.uid) },
    { event: 'updateMailbox', folder_id: drafts.id, unseen: counts.unread_count, total: counts.total_count },
  ];
}

/** Sets \Answered on a message that was just replied to; the store event when it changed. */
export async function markAnswered(db: Db, accountId: number, messageId: number): Promise<MailEvent[]> {
  const row = await db
    .updateTable('messages')
    .set({ answered: true })
    .where('id', '=', messageId)
    .where('account_id', '=', accountId)
    .where('answered', '=', false)
    .returning(['folder_id', 'uid'])
    .executeTakeFirst();
  return row ? [{ event: 'store', folder_id: row.folder_id, uids: [row.uid] }] : [];
}
