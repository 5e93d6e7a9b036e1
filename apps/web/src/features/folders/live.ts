import type { LiveHandler } from '../../api/live';
import { folderKeys } from './queries';

/** SPEC §4: updateMailbox and updateMailboxList reload the folders (counters, new and removed folders). */
export const foldersLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event === 'updateMailbox' || event.event === 'updateMailboxList')
      void client.invalidateQueries({ queryKey: folderKeys.folders });
  },
  refreshAfterGap: [folderKeys.folders],
};
