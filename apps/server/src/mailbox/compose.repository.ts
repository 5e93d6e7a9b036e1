import { type Db, ownRow } from '../core/db/index.js';
import { scopeCondition, type Scope } from './scope.js';

/** One of the account's messages by folder and UID within a scope: what compose needs of it. */
export function composeSourceRow(db: Db, accountId: number, folderId: number, uid: number, scope: Scope) {
  return db
    .selectFrom('messages')
    .select(['id', 'message_id', 'reference_ids', 'attachments', 'blob_hash'])
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .where('uid', '=', uid)
    .where(scopeCondition(scope))
    .executeTakeFirst();
}

/** Sets \Answered unless set; the message's place when it changed. */
export function setAnswered(db: Db, accountId: number, messageId: number) {
  return db
    .updateTable('messages')
    .set({ answered: true })
    .where(ownRow(messageId, accountId))
    .where('answered', '=', false)
    .returning(['folder_id', 'uid'])
    .executeTakeFirst();
}
