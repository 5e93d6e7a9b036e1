import { describe, expect, it } from 'vitest';
import type { Folder } from '@mailroom/protocol';
import { buildFolderSections, findInbox } from './folder-order';
import { folder as topFolder } from '../../test/fixtures';

const names = {
  inbox: 'Inbox',
  sent: 'Sent',
  draft: 'Drafts',
  scheduled: 'Scheduled',
  snoozed: 'Snoozed',
  trash: 'Trash',
  junk: 'Junk',
};

function folder(id: number, name: string, extra: Partial<Folder> = {}): Folder {
  return { ...topFolder(id, name, null), ...extra };
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
      folder(11, 'INBOX.Snoozed', { system: 'snoozed' }),
      folder(10, 'INBOX.Scheduled', { system: 'scheduled' }),
      folder(8, 'INBOX.import.gmail', {
        isCollector: true,
        subfolders: [folder(9, 'INBOX.import.gmail.Later', { isSubCollector: true })],
      }),
    ],
  }),
];

describe('buildFolderSections', () => {
  it('puts system folders first in the order Inbox, Sent, Drafts, Scheduled, Snoozed, Trash, Junk, then the user folders', () => {
    const { main } = buildFolderSections(tree, names);
    expect(main.map((node) => node.displayName)).toEqual([
      'Inbox',
      'Sent',
      'Drafts',
      'Scheduled',
      'Snoozed',
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
      scheduled: 'Запланированные',
      snoozed: 'Отложенные',
      trash: 'Корзина',
      junk: 'Спам',
    };
    expect(
      buildFolderSections(tree, russian)
        .main.slice(0, 7)
        .map((node) => node.displayName),
    ).toEqual(['Входящие', 'Отправленные', 'Черновики', 'Запланированные', 'Отложенные', 'Корзина', 'Спам']);
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

  it("a collector's folders read as a group: the address (its dot a U+2024) over the remote folders, Russian names and all", () => {
    const box = 'INBOX.import.ivan@mail\u2024ru';
    const collector = folder(20, box, {
      isCollector: true,
      unread: 1,
      total: 2,
      subfolders: [
        folder(21, `${box}.INBOX`, { isCollector: true, isSubCollector: true, unread: 4, total: 10 }),
        folder(22, `${box}.Отправленные`, { isCollector: true, isSubCollector: true, total: 3 }),
        folder(23, `${box}.Работа`, {
          isCollector: true,
          isSubCollector: true,
          subfolders: [
            folder(24, `${box}.Работа.2024`, { isCollector: true, isSubCollector: true, unread: 2 }),
          ],
        }),
      ],
    });
    const inbox = folder(1, 'INBOX', { system: 'inbox' });
    const expected = [
      ['ivan@mail\u2024ru', 0],
      ['INBOX', 1],
      ['Отправленные', 1],
      ['Работа', 1],
      ['2024', 2],
    ];
    const flat = (nodes: ReturnType<typeof buildFolderSections>['collectors']): unknown[] =>
      nodes.flatMap((node) => [[node.displayName, node.depth], ...flat(node.children)]);
    // As the server lists it: the collector's folder at the top level (its parent INBOX.import has no row)…
    const top = buildFolderSections([inbox, collector], names);
    expect(flat(top.collectors)).toEqual(expected);
    expect(top.main.map((node) => node.folder.id)).toEqual([1]);
    // …or under INBOX.import, which is then no folder of its own in either section.
    const nested = buildFolderSections(
      [inbox, folder(19, 'INBOX.import', { subfolders: [collector] })],
      names,
    );
    expect(flat(nested.collectors)).toEqual(expected);
    expect(nested.main.map((node) => node.folder.id)).toEqual([1]);
    expect(nested.collectors[0]!.children[0]!.folder.unread).toBe(4);
  });

  it("a user's own folder named import deeper down stays the user's", () => {
    const { main, collectors } = buildFolderSections(
      [
        folder(1, 'INBOX', { system: 'inbox' }),
        folder(2, 'INBOX.Work', { subfolders: [folder(3, 'INBOX.Work.import')] }),
      ],
      names,
    );
    expect(collectors).toEqual([]);
    expect(main[1]!.children.map((node) => node.displayName)).toEqual(['import']);
  });

  it('finds the Inbox for the /mail redirect', () => {
    expect(findInbox(tree)?.id).toBe(1);
  });
});
