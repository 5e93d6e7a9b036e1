import type { Principal } from '../accounts/index.js';
import type { Db } from '../core/db/index.js';
import { deleteMessages, markMessages, moveMessages, type ActionOutcome } from '../mailbox/index.js';
import { requireMessagesInView } from './session-scope.js';

type MessagesRequest = {
  mark: Parameters<typeof markMessages>[2];
  move: Parameters<typeof moveMessages>[2];
  delete: Parameters<typeof deleteMessages>[2];
};

/**
 * POST messages/mark, move, delete for a principal: every named message must be in the session's
 * scope (entity_not_found otherwise), then the action runs in its own transaction.
 */
export async function actOnMessages<A extends keyof MessagesRequest>(
  db: Db,
  principal: Principal,
  action: A,
  request: MessagesRequest[A],
): Promise<ActionOutcome> {
  await requireMessagesInView(db, principal, request.folder_messages);
  if (action === 'mark') return markMessages(db, principal.accountId, request as MessagesRequest['mark']);
  if (action === 'move') return moveMessages(db, principal.accountId, request as MessagesRequest['move']);
  return deleteMessages(db, principal.accountId, request as MessagesRequest['delete']);
}
