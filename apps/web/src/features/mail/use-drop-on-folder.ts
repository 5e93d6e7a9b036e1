import type { DraggedMessages } from '../folders';
import { useMoveTo, type MoveSubject } from './queries';
import { useSelection } from './selection-store';

/**
 * What a drop of list rows on a folder of the sidebar does (SPEC §2 drag-and-drop onto the folder tree): the rows
 * move there as the toolbar's move does. The folder tree only reads the drag; the app hands it this handler.
 */
export function useDropOnFolder(): (folderId: number, dragged: DraggedMessages) => void {
  const moveTo = useMoveTo();
  return (folderId, dragged) => {
    let subject: MoveSubject;
    if (dragged.bulk) {
      // Select-all: the whole folder, label or search result moves, as with the toolbar's move (SPEC §4).
      if (dragged.bulk.folder_id === folderId) return;
      subject = { bulk: dragged.bulk };
    } else {
      const messages = dragged.messages
        .filter((group) => group.folder_id !== folderId)
        .flatMap((group) => group.message_uids.map((uid) => ({ folder_id: group.folder_id, uid })));
      if (messages.length === 0) return;
      subject = { messages };
    }
    useSelection.getState().clear();
    // A failure is shown in the error dialog by the mutation cache; the rows come back on their own.
    moveTo(folderId, subject).catch(() => {});
  };
}
