import type { FolderMessages, FolderSystem, MailListItem, Settings } from '@mailroom/protocol';
import type { SearchForm } from '../search';

/** What a list shows: a folder, a label or search results. */
export interface ListSource {
  kind: 'folder' | 'label' | 'search';
  /** The folder id or label id of the route; for a search the folder searched in (0 for all folders). */
  id: number;
  /** The search of a search list. */
  search?: SearchForm;
  /** 'all' or an alias id, as in the route's a_id. */
  aliasId: string;
  page: number;
  limit: number;
  /**
   * The settings that decide the server's rows and their order (listOrder: unread_first, message_thread): part of
   * the list's key, so saving them reads the list again at once.
   */
  order?: string;
}

/** ListSource.order of the account's settings. */
export function listOrder(settings: Pick<Settings, 'unread_first' | 'message_thread'> | undefined): string {
  if (!settings) return '';
  return `${settings.unread_first ? 'unread' : 'date'}:${settings.message_thread ? 'chains' : 'messages'}`;
}

/** A message is named by its folder and uid everywhere in the API; this is that pair as one string key. */
export function messageKey(item: Pick<MailListItem, 'folder_id' | 'uid'>): string {
  return `${item.folder_id}:${item.uid}`;
}

/**
 * The route's msg_id. In a folder it is the uid (the folder is in the route); a label list mixes folders, so there
 * it is `<folder_id>-<uid>`. Both survive reloads and shared links.
 */
export function messageRouteId(
  item: Pick<MailListItem, 'folder_id' | 'uid'>,
  kind: ListSource['kind'],
): string {
  return kind === 'folder' ? String(item.uid) : `${item.folder_id}-${item.uid}`;
}

export function parseMessageRouteId(
  msgId: string | undefined,
  kind: ListSource['kind'],
  routeFolderId: number | null,
): { folderId: number; uid: number } | null {
  if (!msgId) return null;
  if (kind === 'folder') {
    const uid = Number(msgId);
    if (!Number.isInteger(uid) || uid <= 0 || routeFolderId === null) return null;
    return { folderId: routeFolderId, uid };
  }
  const match = /^(\d+)-(\d+)$/.exec(msgId);
  if (!match) return null;
  return { folderId: Number(match[1]), uid: Number(match[2]) };
}

/** The rows' messages grouped by folder, as the delete, move and mark calls take them. */
export function toFolderMessages(
  items: readonly Pick<MailListItem, 'folder_id' | 'uid'>[],
): FolderMessages[] {
  const byFolder = new Map<number, number[]>();
  for (const item of items) {
    const uids = byFolder.get(item.folder_id) ?? [];
    uids.push(item.uid);
    byFolder.set(item.folder_id, uids);
  }
  return [...byFolder].map(([folder_id, message_uids]) => ({ folder_id, message_uids }));
}

export type SelectFilter = 'all' | 'read' | 'unread' | 'marked' | 'unmarked' | 'none';

/** The select menu of SPEC §2 applied to the rows of the page. */
export function selectByFilter(items: readonly MailListItem[], filter: SelectFilter): Set<string> {
  const keep = (item: MailListItem) => {
    switch (filter) {
      case 'all':
        return true;
      case 'read':
        return item.flags.seen;
      case 'unread':
        return !item.flags.seen;
      case 'marked':
        return item.flags.flagged;
      case 'unmarked':
        return !item.flags.flagged;
      case 'none':
        return false;
    }
  };
  return new Set(items.filter(keep).map(messageKey));
}

export type FlagChange = 'seen' | 'unseen' | 'flagged' | 'unflagged';

/** In Sent and Drafts the interesting party is whom it went to (SPEC §2 list). */
export function rowCorrespondents(item: MailListItem, system: FolderSystem | null | undefined): string {
  const people = system === 'sent' || system === 'draft' ? item.fields.to : item.fields.from;
  const names = people.map((person) => person.name.trim() || person.email).filter(Boolean);
  return names.join(', ');
}

export interface PageRange {
  from: number;
  to: number;
  total: number;
  pages: number;
}

export function pageRange(page: number, limit: number, total: number): PageRange {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (total === 0) return { from: 0, to: 0, total, pages };
  const from = Math.min(total, (page - 1) * limit + 1);
  return { from, to: Math.min(total, page * limit), total, pages };
}

/**
 * Where up/down goes from the open message (SPEC §2): the neighbour on this page, or across the page boundary —
 * the last message of the previous page, the first of the next one. With none open, the first message.
 */
export type Step =
  { kind: 'open'; index: number } | { kind: 'page'; page: number; pick: 'first' | 'last' } | { kind: 'none' };

export function stepFrom(
  currentIndex: number,
  direction: 1 | -1,
  count: number,
  page: number,
  pages: number,
): Step {
  if (count === 0) return { kind: 'none' };
  if (currentIndex < 0) return { kind: 'open', index: 0 };
  const next = currentIndex + direction;
  if (next >= 0 && next < count) return { kind: 'open', index: next };
  if (direction === -1 && page > 1) return { kind: 'page', page: page - 1, pick: 'last' };
  if (direction === 1 && page < pages) return { kind: 'page', page: page + 1, pick: 'first' };
  return { kind: 'none' };
}

/**
 * The messages up/down walks through, in screen order: each row, and under a chain opened in place (SPEC §3
 * isChainOpened) its members. In a folder list only members of that folder are stepped on: one in another folder
 * opens in its own folder, which would leave this list and its keyboard path behind.
 */
export function keyboardSequence(
  items: readonly MailListItem[],
  openedChains: ReadonlySet<string>,
  folderId: number | null,
): Pick<MailListItem, 'folder_id' | 'uid'>[] {
  const sequence: Pick<MailListItem, 'folder_id' | 'uid'>[] = [];
  for (const item of items) {
    sequence.push(item);
    if (!item.threads?.length || !openedChains.has(messageKey(item))) continue;
    for (const member of item.threads) {
      if (folderId === null || member.folder_id === folderId) sequence.push(member);
    }
  }
  return sequence;
}

/** image_display (SPEC §4): 'correspondent' shows remote images from senders who are contacts. */
export function shouldShowImages(
  setting: 'always' | 'never' | 'correspondent' | undefined,
  senderIsContact: boolean,
): boolean {
  if (setting === 'always') return true;
  if (setting === 'correspondent') return senderIsContact;
  return false;
}
