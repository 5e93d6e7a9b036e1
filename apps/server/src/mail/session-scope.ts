import type { FolderMessages } from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { sessionView } from './messages-read.service.js';

/**
 * A session with password access to one address (alias-only, SPEC §6) may act only on mail to
 * that address. Full sessions pass untouched. The alias a message was delivered to never
 * changes, so checking before the action's own transaction is enough.
 */
export async function requireMessagesInView(
  db: Db,
  principal: Principal,
  groups: FolderMessages[],
): Promise<void> {
  const view = await sessionView(db, principal);
  if (view.kind === 'all') return;
  for (const group of groups) {
    const uids = [...new Set(group.message_uids)];
    const row = await db
      .selectFrom('messages')
      .select(db.fn.countAll<number>().as('n'))
      .where('account_id', '=', principal.accountId)
      .where('folder_id', '=', group.folder_id)
      .where('uid', 'in', uids)
      .where('alias_id', '=', view.aliasId ?? -1)
      .executeTakeFirstOrThrow();
    if (Number(row.n) !== uids.length) throw new DomainError('entity_not_found');
  }
}

/** Labels, whole-folder and search actions are for the mailbox owner, not an alias-only session. */
export function requireFullSession(principal: Principal): Principal {
  if (principal.aliasEmail) throw new DomainError('forbidden');
  return principal;
}
