import { describe, expect, it } from 'vitest';
import type { MailListItem, MailListResponse } from '@mailroom/protocol';
import {
  keyboardSequence,
  messageKey,
  messageRouteId,
  pageRange,
  parseMessageRouteId,
  rowCorrespondents,
  selectByFilter,
  shouldShowImages,
  stepFrom,
  toFolderMessages,
} from './list-model';
import { withFlag, withoutMessages } from './mutations';
import { listItem } from '../../test/fixtures';

/** Message `uid` of folder 1, from Ann Lee to bob@example.test. */
function item(uid: number, extra: Partial<MailListItem> = {}): MailListItem {
  const base = listItem(uid);
  return {
    ...base,
    folder_id: 1,
    fields: {
      ...base.fields,
      from: [{ name: 'Ann Lee', email: 'ann@example.test' }],
      to: [{ name: '', email: 'bob@example.test' }],
    },
    preview: '',
    size: 100,
    created_at: '2026-11-21T10:00:00Z',
    ...extra,
  };
}

describe('message routes', () => {
  it('names a message by uid in a folder and by folder-uid in a label list', () => {
    expect(messageRouteId({ folder_id: 3, uid: 9 }, 'folder')).toBe('9');
    expect(messageRouteId({ folder_id: 3, uid: 9 }, 'label')).toBe('3-9');
    expect(parseMessageRouteId('9', 'folder', 3)).toEqual({ folderId: 3, uid: 9 });
    expect(parseMessageRouteId('3-9', 'label', null)).toEqual({ folderId: 3, uid: 9 });
    expect(parseMessageRouteId('abc', 'folder', 3)).toBeNull();
    expect(parseMessageRouteId(undefined, 'folder', 3)).toBeNull();
  });
});

describe('actions on rows', () => {
  it('groups messages by folder as folder_messages', () => {
    expect(
      toFolderMessages([
        { folder_id: 1, uid: 5 },
        { folder_id: 2, uid: 6 },
        { folder_id: 1, uid: 7 },
      ]),
    ).toEqual([
      { folder_id: 1, message_uids: [5, 7] },
      { folder_id: 2, message_uids: [6] },
    ]);
  });

  it('selects rows by the select menu filters', () => {
    const rows = [
      item(1, { flags: { seen: false, flagged: true, draft: false } }),
      item(2),
      item(3, { flags: { seen: false, flagged: false, draft: false } }),
    ];
    expect([...selectByFilter(rows, 'unread')]).toEqual(['1:1', '1:3']);
    expect([...selectByFilter(rows, 'read')]).toEqual(['1:2']);
    expect([...selectByFilter(rows, 'marked')]).toEqual(['1:1']);
    expect([...selectByFilter(rows, 'unmarked')]).toEqual(['1:2', '1:3']);
    expect(selectByFilter(rows, 'all').size).toBe(3);
    expect(selectByFilter(rows, 'none').size).toBe(0);
  });

  it('applies a flag to the named rows and their chain members only', () => {
    const list: MailListResponse = {
      messages: [
        item(1, {
          threads: [
            {
              id: 50,
              uid: 50,
              subject: 'Chain',
              from: [],
              created_at: '2026-01-01T00:00:00Z',
              folder_id: 2,
              flags: { seen: true, flagged: false, draft: false },
              labels: [],
            },
          ],
        }),
        item(2),
      ],
      total: 2,
      all: 3,
    };
    const next = withFlag(list, new Set(['1:1', '2:50']), 'flagged');
    expect(next.messages[0]!.flags.flagged).toBe(true);
    expect(next.messages[0]!.threads![0]!.flags.flagged).toBe(true);
    expect(next.messages[1]).toBe(list.messages[1]);
    expect(withFlag(list, new Set(['9:9']), 'seen')).toBe(list);
  });

  it('takes removed rows out of the page and the counts', () => {
    const list: MailListResponse = { messages: [item(1), item(2)], total: 10, all: 12 };
    const next = withoutMessages(list, new Set([messageKey(item(1))]));
    expect(next.messages.map((row) => row.uid)).toEqual([2]);
    expect(next.total).toBe(9);
    expect(next.all).toBe(11);
  });
});

describe('rows and pages', () => {
  it('shows the sender, or the recipients in Sent and Drafts', () => {
    expect(rowCorrespondents(item(1), 'inbox')).toBe('Ann Lee');
    expect(rowCorrespondents(item(1), 'sent')).toBe('bob@example.test');
    expect(rowCorrespondents(item(1), 'draft')).toBe('bob@example.test');
  });

  it("gives the range '1–30 of total' and the page count", () => {
    expect(pageRange(1, 30, 75)).toEqual({ from: 1, to: 30, total: 75, pages: 3 });
    expect(pageRange(3, 30, 75)).toEqual({ from: 61, to: 75, total: 75, pages: 3 });
    expect(pageRange(1, 30, 0)).toEqual({ from: 0, to: 0, total: 0, pages: 1 });
  });

  it('steps between messages and across page boundaries (SPEC §2)', () => {
    expect(stepFrom(-1, 1, 30, 1, 3)).toEqual({ kind: 'open', index: 0 });
    expect(stepFrom(-1, -1, 30, 2, 3)).toEqual({ kind: 'open', index: 0 });
    expect(stepFrom(4, 1, 30, 1, 3)).toEqual({ kind: 'open', index: 5 });
    expect(stepFrom(29, 1, 30, 1, 3)).toEqual({ kind: 'page', page: 2, pick: 'first' });
    expect(stepFrom(0, -1, 30, 2, 3)).toEqual({ kind: 'page', page: 1, pick: 'last' });
    expect(stepFrom(0, -1, 30, 1, 3)).toEqual({ kind: 'none' });
    expect(stepFrom(14, 1, 15, 3, 3)).toEqual({ kind: 'none' });
    expect(stepFrom(-1, 1, 0, 1, 1)).toEqual({ kind: 'none' });
  });

  it('up and down walk into the members of an opened chain, skipping members kept in other folders', () => {
    const member = (uid: number, folder_id = 1) => ({
      id: uid,
      uid,
      folder_id,
      subject: `Re ${uid}`,
      from: [],
      created_at: '2026-11-21T10:00:00Z',
      flags: { seen: true, flagged: false, draft: false },
      labels: [],
    });
    const rows = [
      item(10, { threads: [member(8), member(7, 2), member(6)] }),
      item(5, { threads: [member(4)] }),
    ];
    const keys = (sequence: { folder_id: number; uid: number }[]) => sequence.map(messageKey);
    expect(keys(keyboardSequence(rows, new Set(), 1))).toEqual(['1:10', '1:5']);
    expect(keys(keyboardSequence(rows, new Set(['1:10']), 1))).toEqual(['1:10', '1:8', '1:6', '1:5']);
    // A label or search list opens any member in place.
    expect(keys(keyboardSequence(rows, new Set(['1:10', '1:5']), null))).toEqual([
      '1:10',
      '1:8',
      '2:7',
      '1:6',
      '1:5',
      '1:4',
    ]);
  });

  it('shows remote images by the image_display setting', () => {
    expect(shouldShowImages('always', false)).toBe(true);
    expect(shouldShowImages('never', true)).toBe(false);
    expect(shouldShowImages('correspondent', true)).toBe(true);
    expect(shouldShowImages('correspondent', false)).toBe(false);
  });
});
