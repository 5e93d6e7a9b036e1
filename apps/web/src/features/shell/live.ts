import type { LiveHandler } from '../../api/live';
import { delegatedEmailsKey, sharedMailboxesKey } from './impersonation';

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
