import type { LiveHandler } from '../../api/live';
import { mailKeys } from './queries';

/** SPEC §4: new, store and move refresh the lists of the folders they name (and every label list). */
export const mailLiveHandler: LiveHandler = {
  onEvent(event, client) {
    switch (event.event) {
      case 'new':
      case 'store':
      case 'move':
        void client.invalidateQueries({ queryKey: mailKeys.listsOf('folder', event.folder_id) });
        // A label list mixes folders; it may show any of these messages.
        void client.invalidateQueries({ queryKey: mailKeys.listsOfKind('label') });
        if (event.event === 'move' && event.to_folder_id !== null)
          void client.invalidateQueries({ queryKey: mailKeys.listsOf('folder', event.to_folder_id) });
        break;
    }
  },
  // An opened message does not change with the events; the lists do.
  refreshAfterGap: [mailKeys.lists],
};
