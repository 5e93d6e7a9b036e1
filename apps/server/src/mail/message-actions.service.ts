import type { Principal } from '../accounts/index.js';
import type { ActionResult } from '@mailroom/protocol';
import {
  deleteMessages,
  markMessages,
  moveMessages,
  snoozeMessages,
  unsnoozeMessages,
} from '../mailbox/index.js';
import { requireMessagesInView } from './session-scope.js';
import { changeStore, type StoreChangeDeps } from './store-change.js';

type MessagesRequest = {
  mark: Parameters<typeof markMessages>[2];
  move: Parameters<typeof moveMessages>[2];
  delete: Parameters<typeof deleteMessages>[2];
  snooze: { folder_messages: MessagesRequest['mark']['folder_messages']; until: string };
  unsnooze: Parameters<typeof unsnoozeMessages>[2];
};

/**
 * POST messages/mark, move, delete for a principal: every named message must be in the session's
 * scope (entity_not_found otherwise), then the action runs in its own transaction.
 */
export async function actOnMessages<A extends keyof MessagesRequest>(
  deps: StoreChangeDeps,
  principal: Principal,
  action: A,
  request: MessagesRequest[A],
): Promise<ActionResult> {
  await requireMessagesInView(deps.db, principal, request.folder_messages);
  const { accountId } = principal;
  return changeStore(deps, accountId, (trx) => {
    if (action === 'mark') return markMessages(trx, accountId, request as MessagesRequest['mark']);
    if (action === 'move') return moveMessages(trx, accountId, request as MessagesRequest['move']);
    if (action === 'snooze') {
      const { folder_messages, until } = request as MessagesRequest['snooze'];
      return snoozeMessages(trx, accountId, { folder_messages, until: new Date(until) });
    }
    if (action === 'unsnooze')
      return unsnoozeMessages(trx, accountId, request as MessagesRequest['unsnooze']);
    return deleteMessages(trx, accountId, request as MessagesRequest['delete']);
  });
}
