import { describe, expect, it } from 'vitest';
import type { Folder } from '@mailroom/protocol';
import { buildFolderSections, findInbox } from './folder-order';

const names = { inbox: 'Inbox', sent: 'Sent', draft: 'Drafts', trash: 'Trash', junk: 'Junk' };

function folder(id: number, name: string, extra: Partial<Folder> = {}): Folder {
  return {
    id,
    name,
    system: null,
    unread: 0,
    total: 0,
    subfolders: [],
    isCollector: false,
    isSubCollector: false,
    ...extra,
  };
}

const tree: Folder[] = [
  folder(1, 'INBOX', {
    system: 'inbox',
    unread: 3,
    subfolders: [
      folder(6, 'INBOX.Work', { subfolders: [folder(7, 'INBOX.Work.2024')] }),
      folder(5, 'INBOX.Junk', { system: 'junk' }),
      folder(4, 'INBOX.Trash', { system: 'trash' }),
      folder(3, 'INBOX.Drafts', { system: 'draft' }),
      folder(2, 'INBOX.Sent', { system: 'sent' }),
      folder(8, 'INBOX.import.gmail', {
        isCollector: true,
        subfolders: [folder(9, 'INBOX.import.gmail.Later', { isSubCollector: true })],
      }),
    ],
  }),
];

describe('buildFolderSections', () => {
  it('puts system folders first in the order Inbox, Sent, Drafts, Trash, Junk, then the user folders', () => {
    const { main } = buildFolderSections(tree, names);
    expect(main.map((node) => node.displayName)).toEqual([
      'Inbox',
      'Sent',
      'Drafts',
      'Trash',
      'Junk',
      'Work',
    ]);
  });

  it('names user folders by the last segment of their dotted path and keeps their nesting', () => {
    const work = buildFolderSections(tree, names).main.at(-1)!;
    expect(work.children.map((node) => [node.displayName, node.depth])).toEqual([['2024', 1]]);
  });

  it('uses the translated names for system folders', () => {
    const russian = {
      inbox: 'Входящие',
      sent: 'Отправленные',
      draft: 'Черновики',
      trash: 'Корзина',
      junk: 'Спам',
    };
    expect(
      buildFolderSections(tree, russian)
        .main.slice(0, 5)
        .map((node) => node.displayName),
    ).toEqual(['Входящие', 'Отправленные', 'Черновики', 'Корзина', 'Спам']);
  });

  it('keeps collector folders apart from the main tree', () => {
    const { main, collectors } = buildFolderSections(tree, names);
    expect(main.some((node) => node.folder.isCollector)).toBe(false);
    expect(collectors.map((node) => node.displayName)).toEqual(['gmail']);
    expect(collectors[0]!.children.map((node) => node.displayName)).toEqual(['Later']);
  });

  it("treats a '.import.' name as a collector even without the flag", () => {
    const { collectors } = buildFolderSections(
      [folder(1, 'INBOX', { system: 'inbox' }), folder(2, 'INBOX.import.x')],
      names,
    );
    expect(collectors.map((node) => node.folder.id)).toEqual([2]);
  });

  it('finds the Inbox for the /mail redirect', () => {
    expect(findInbox(tree)?.id).toBe(1);
  });
});
