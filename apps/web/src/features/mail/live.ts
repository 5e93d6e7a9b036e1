import type { LiveHandler } from '../../api/live';
import { mailKeys } from './queries';

/**
 * The messages the reader has just marked seen by opening them (`folder:uid`). Their list rows already show it (the
 * mark's optimistic change), and asking the list again would move the open message away under unread-first (issue
 * 28): the store event that only names these leaves the lists as they are.
 */
const seenByOpening = new Set<string>();

export function markedSeenByOpening(message: { folder_id: number; uid: number }): void {
  seenByOpening.add(`${message.folder_id}:${message.uid}`);
  // Kept only for the echo of that change: an event lost on the way must not keep it forever.
  setTimeout(() => seenByOpening.delete(`${message.folder_id}:${message.uid}`), 30_000);
}

/** Whether a store event only echoes seen-marks of opening (each is forgotten once echoed). */
function echoOfOpening(folderId: number, uids: readonly number[]): boolean {
  const keys = uids.map((uid) => `${folderId}:${uid}`);
  if (keys.length === 0 || !keys.every((key) => seenByOpening.has(key))) return false;
  for (const key of keys) seenByOpening.delete(key);
  return true;
}

/** SPEC §4: new, store and move refresh the lists of the folders they name (and every label list). */
export const mailLiveHandler: LiveHandler = {
  onEvent(event, client) {
    // The echo of the reader's own seen-mark changes nothing the list does not show already.
    if (event.event === 'store' && echoOfOpening(event.folder_id, event.uids)) return;
    switch (event.event) {
      case 'store':
      case 'new':
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
