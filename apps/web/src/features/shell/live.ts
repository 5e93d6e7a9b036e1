import type { QueryClient } from '@tanstack/react-query';
import type { AccessResponse } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import type { LiveHandler } from '../../api/live';
import { accountKeys } from '../account';
import { delegatedEmailsKey, LEFT_ADDRESS_KEY, mailboxNavigation, sharedMailboxesKey } from './impersonation';

/**
 * A member granted or revoked this member's access to their mailbox: the account menu's list is read again; an
 * address delegated to this member or taken back: the sidebar's and settings/d_emails' list.
 */
export const shellLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event !== 'updateAccount') return;
    if (event.part === 'shared') void client.invalidateQueries({ queryKey: sharedMailboxesKey });
    if (event.part === 'delegated') void client.invalidateQueries({ queryKey: delegatedEmailsKey });
  },
  refreshAfterGap: [sharedMailboxesKey, delegatedEmailsKey],
};

/**
 * The live socket of a session in another member's mailbox closed as its session ended or changed: a delegation
 * taken back moves the session to the delegate's own mailbox (issue 28 item 23). When the session is no longer
 * where this page is, the app starts again on /mail, in the mailbox the session is in now; the page after it says
 * why (leftAddressNotice). A session that really ended is left to the next request's 401, as before.
 */
export async function followSessionChange(client: QueryClient): Promise<void> {
  const before = client.getQueryData<AccessResponse>(accountKeys.access);
  if (!before?.info.impersonator) return;
  let now: AccessResponse;
  try {
    now = await call(routes.access);
  } catch {
    return;
  }
  const same =
    now.email === before.email &&
    (now.info.alias ?? null) === (before.info.alias ?? null) &&
    now.info.impersonator?.member_id === before.info.impersonator.member_id;
  if (same) return;
  if (before.info.alias) {
    try {
      sessionStorage.setItem(LEFT_ADDRESS_KEY, before.info.alias);
    } catch {
      // No storage: the move happens without its notice.
    }
  }
  mailboxNavigation.assign('/mail');
}
