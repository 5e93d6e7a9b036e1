import type { FolderMessages } from '@mailroom/protocol';

/**
 * Messages dragged from the list onto a folder of the sidebar travel as this private type: native HTML drag and
 * drop needs no library (nothing to load for the drag layer) and other apps' drops are ignored.
 */
export const MESSAGE_DRAG_TYPE = 'application/x-mailroom-messages';

export function isMessageDrag(types: readonly string[]): boolean {
  return types.includes(MESSAGE_DRAG_TYPE);
}

export function readDraggedMessages(data: DataTransfer): FolderMessages[] {
  try {
    const parsed: unknown = JSON.parse(data.getData(MESSAGE_DRAG_TYPE));
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (entry): entry is FolderMessages =>
        typeof entry === 'object' &&
        entry !== null &&
        Number.isInteger((entry as FolderMessages).folder_id) &&
        Array.isArray((entry as FolderMessages).message_uids),
    );
  } catch {
    return [];
  }
}
