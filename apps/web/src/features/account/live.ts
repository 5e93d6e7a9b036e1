import type { LiveHandler } from '../../api/live';
import { accountKeys } from './queries';

/** Mail that arrives or leaves for good changes the quota bar's 'Used X of Y', which comes with the account. */
export const accountLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event === 'updateMailbox' || event.event === 'updateMailboxList')
      void client.invalidateQueries({ queryKey: accountKeys.account });
  },
  refreshAfterGap: [accountKeys.account],
};
