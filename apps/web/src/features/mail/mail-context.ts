import { createContext, useContext } from 'react';
import type { Folder, MailListItem, MailListResponse } from '@mailroom/protocol';
import type { ListSource } from './list-model';

/** What the list, the toolbar and the reader of one mail screen share. */
export interface MailScreenContext {
  source: ListSource;
  /** The folder of a folder list; null for a label list. */
  folder: Folder | null;
  folders: readonly Folder[];
  list: MailListResponse | undefined;
  listPending: boolean;
  /** The list could not be loaded (the error itself went to the error dialog). */
  listFailed: boolean;
  retryList(): void;
  /** The open message's key (folder:uid), if any. */
  openKey: string | null;
  /** The route of a page of this list, optionally with a message open. */
  pathTo(page: number, item?: Pick<MailListItem, 'folder_id' | 'uid'> | null): string;
  openMessage(item: Pick<MailListItem, 'folder_id' | 'uid'>): void;
  closeMessage(): void;
  /** Up/down (SPEC §2): the next or previous message, crossing page boundaries. */
  step(direction: 1 | -1): void;
}

export const MailContext = createContext<MailScreenContext | null>(null);

export function useMailScreen(): MailScreenContext {
  const context = useContext(MailContext);
  if (!context) throw new Error('useMailScreen outside a mail screen');
  return context;
}
