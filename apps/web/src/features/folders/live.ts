import type { LiveHandler } from '../../api/live';
import { folderKeys } from './queries';

export { documentTitle, watchUnreadTitle } from './unread-title';

/**
 * SPEC §4: updateMailbox and updateMailboxList reload the folders (counters, new and removed folders); labels
 * created, renamed, recoloured or deleted in another tab reload the labels.
 */
export const foldersLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event === 'updateMailbox' || event.event === 'updateMailboxList')
      void client.invalidateQueries({ queryKey: folderKeys.folders });
    if (event.event === 'updateAccount' && event.part === 'labels')
      void client.invalidateQueries({ queryKey: folderKeys.labels });
  },
  refreshAfterGap: [folderKeys.folders, folderKeys.labels],
};
