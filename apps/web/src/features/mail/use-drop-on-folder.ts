import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import { raiseSuccess, useNotices } from '../../ui/notices-store';
import { flattenFolders, folderLabel, useFolders, type DraggedMessages } from '../folders';
import type { MoveSubject } from './mutations';
import { useSelection } from './selection-store';

/**
 * What a drop of list rows on a folder of the sidebar does (SPEC §2 drag-and-drop onto the folder tree): the rows
 * move there as the toolbar's move does, with the same Undo. The folder tree only reads the drag; the app hands it
 * this handler.
 */
export function useDropOnFolder(): (folderId: number, dragged: DraggedMessages) => void {
  const client = useQueryClient();
  const folders = useFolders();
  const { t } = useTranslation();
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
    const folder = flattenFolders(folders.data ?? []).find((f) => f.id === folderId);
    const name = folder ? folderLabel(folder, t) : '';
    // The move's code loads on the first drop (DESIGN §5: not in the mail shell's initial JavaScript).
    import('./mutations')
      .then(({ moveTo, moveBack }) =>
        moveTo(client, folderId, subject).then(
          (moved) =>
            moved.length > 0 &&
            raiseSuccess(t('mail.movedTo', { folder: name }), () => moveBack(client, moved)),
          // A failure is shown in the error box by the mutation cache; the rows come back on their own.
          () => {},
        ),
      )
      .catch(() => useNotices.getState().push('error', t('app.chunkFailed')));
  };
}
