import type { LiveHandler } from '../../api/live';
import { accountKeys } from './queries';

/**
 * Mail that arrives or leaves for good changes the quota bar's 'Used X of Y', which comes with the account; settings
 * and profiles saved in another tab come with it too.
 */
export const accountLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (
      event.event === 'updateMailbox' ||
      event.event === 'updateMailboxList' ||
      (event.event === 'updateAccount' && (event.part === 'settings' || event.part === 'profiles'))
    )
      void client.invalidateQueries({ queryKey: accountKeys.account });
  },
  refreshAfterGap: [accountKeys.account],
};
