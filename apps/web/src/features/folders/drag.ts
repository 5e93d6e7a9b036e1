import type { FolderMessages, MessageQuery } from '@mailroom/protocol';

/**
 * Messages dragged from the list onto a folder of the sidebar travel as this private type: native HTML drag and
 * drop needs no library (nothing to load for the drag layer) and other apps' drops are ignored.
 */
export const MESSAGE_DRAG_TYPE = 'application/x-mailroom-messages';

/** What a drag from the list carries. */
export interface DraggedMessages {
  /** The dragged rows of the page. */
  messages: FolderMessages[];
  /**
   * Select-all was on and a selected row was dragged: the request naming the whole folder, label or search
   * result, which moves as the toolbar's move does (SPEC §4), not only the rows of the page.
   */
  bulk: MessageQuery | null;
}

export function isMessageDrag(types: readonly string[]): boolean {
  return types.includes(MESSAGE_DRAG_TYPE);
}

export function writeDraggedMessages(data: DataTransfer, dragged: DraggedMessages): void {
  data.setData(MESSAGE_DRAG_TYPE, JSON.stringify(dragged));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function readDraggedMessages(data: DataTransfer): DraggedMessages {
  const none: DraggedMessages = { messages: [], bulk: null };
  try {
    const parsed: unknown = JSON.parse(data.getData(MESSAGE_DRAG_TYPE));
    if (!isObject(parsed) || !Array.isArray(parsed.messages)) return none;
    const messages = parsed.messages.filter(
      (entry): entry is FolderMessages =>
        isObject(entry) &&
        Number.isInteger(entry.folder_id) &&
        Array.isArray(entry.message_uids) &&
        entry.message_uids.every((uid) => Number.isInteger(uid)),
    );
    // The bulk request goes to the server as it is; the server validates it like any other request.
    const bulk = isObject(parsed.bulk) ? (parsed.bulk as MessageQuery) : null;
    return { messages, bulk };
  } catch {
    return none;
  }
}
