import type { LiveHandler } from '../../api/live';
import { sharedMailboxesKey } from './impersonation';

/** A member granted or revoked this member's access to their mailbox: the account menu's list is read again. */
export const shellLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event === 'updateAccount' && event.part === 'shared')
      void client.invalidateQueries({ queryKey: sharedMailboxesKey });
  },
  refreshAfterGap: [sharedMailboxesKey],
};
