import type { FolderMessages } from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import { scopeOf } from '../addresses/index.js';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { countInScope } from './messages-read.repository.js';

/**
 * A session with password access to one address (SPEC §6) may act only on mail in its scope
 * (scopeOf). Full sessions pass untouched. The address a message was delivered to never changes,
 * so checking before the action's own transaction is enough.
 */
export async function requireMessagesInView(
  db: Db,
  principal: Principal,
  groups: FolderMessages[],
): Promise<void> {
  const scope = await scopeOf(db, principal);
  if (scope.kind === 'all') return;
  for (const group of groups) {
    const uids = [...new Set(group.message_uids)];
    const n = await countInScope(db, principal.accountId, group.folder_id, uids, scope);
    if (n !== uids.length) throw new DomainError('entity_not_found');
  }
}
