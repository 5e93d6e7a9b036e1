import type { LiveHandler } from '../../api/live';
import { accountKeys } from './queries';

/**
 * Mail that arrives or leaves for good changes the quota bar's 'Used X of Y', which comes with the account; settings
 * and profiles saved in another tab come with it too, and so do its aliases (the sidebar's alias list and compose's
 * From): an alias just created, paid or deleted shows without a reload, and so does an address on an own domain.
 */
export const accountLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (
      event.event === 'updateMailbox' ||
      event.event === 'updateMailboxList' ||
      (event.event === 'updateAccount' &&
        (event.part === 'settings' ||
          event.part === 'profiles' ||
          event.part === 'aliases' ||
          event.part === 'domains'))
    )
      void client.invalidateQueries({ queryKey: accountKeys.account });
  },
  refreshAfterGap: [accountKeys.account],
};
