import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MailListItem } from '@mailroom/protocol';
import { folder, listItem, openedMail, testAccount, testUser } from '../../test/fixtures';
import { fakeApi, routeAndBody } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';
import { useNotices } from '../../ui/notices-store';
import { fromLocalInput, isoWithOffset, snoozePresets } from './snooze-time';

const folders = [
  folder(11, 'INBOX', 'inbox', { total: 3 }),
  folder(12, 'INBOX.Trash', 'trash'),
  folder(15, 'INBOX.Scheduled', 'scheduled'),
  folder(16, 'INBOX.Snoozed', 'snoozed', { total: 1 }),
  folder(17, 'INBOX.Work', null),
];

const until = '2030-01-07T08:00:00+00:00';

function mockServer(rows: { inbox?: MailListItem[]; snoozed?: MailListItem[] } = {}) {
  const inbox = rows.inbox ?? [listItem(3), listItem(2), listItem(1)];
  const snoozed = rows.snoozed ?? [listItem(9, { folder_id: 16, snoozed_until: until })];
  const lists: Record<string, MailListItem[]> = { '11': inbox, '16': snoozed };
  return fakeApi(
    {
      folderMessages: ({ params }) => {
        const messages = lists[params.folder_id ?? ''] ?? [];
        return { messages, total: messages.length, all: messages.length };
      },
      message: ({ params }) => {
        const row = lists[params.folder_id ?? '']?.find((item) => item.uid === Number(params.uid));
        return row ? { message: openedMail(row, `Body of ${row.uid}`) } : undefined;
      },
      markMessages: { ok: true },
      snoozeMessages: ({ body }) => {
        const { folder_messages } = body as {
          folder_messages: { folder_id: number; message_uids: number[] }[];
        };
        return {
          ok: true,
          moved: folder_messages.flatMap((group) =>
            group.message_uids.map((uid) => ({
              folder_id: group.folder_id,
              uid,
              destination_id: 16,
              destination_uid: 100 + uid,
            })),
          ),
        };
      },
      unsnoozeMessages: { ok: true, moved: [] },
    },
    { shell: { user: testUser, account: testAccount({ per_page: 20 }), folders } },
  ).calls;
}

setUpScreenTests();

/** Opens a Radix dropdown by its trigger's name (its items load on the first click; Radix opens on pointer down). */
async function openMenu(name: string, within_: HTMLElement = document.body) {
  // The selection's actions are a chunk of their own: wait for the trigger.
  fireEvent.click(await within(within_).findByRole('button', { name }));
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  if (!screen.queryByRole('menu')) {
    const trigger = within(within_).getByRole('button', { name, hidden: true });
    fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false });
  }
  return screen.findByRole('menu');
}

describe('snooze times', () => {
  it('sends the moment in the browser zone with its offset', () => {
    const at = new Date(2026, 10, 29, 14, 5, 0);
    const iso = isoWithOffset(at);
    expect(iso).toMatch(/^2026-11-29T14:05:00[+-]\d\d:\d\d$/);
    expect(Date.parse(iso)).toBe(at.getTime());
  });

  it('Later today is three hours on, rounded up to the hour, and only while still today', () => {
    // Sunday 29 November 2026.
    const afternoon = snoozePresets(new Date(2026, 10, 29, 14, 5));
    expect(afternoon.later).toEqual(new Date(2026, 10, 29, 18, 0));
    expect(afternoon.tomorrow).toEqual(new Date(2026, 10, 30, 8, 0));
    // On a Sunday the coming Monday is Tomorrow already: Next week is the Monday after.
    expect(afternoon.nextWeek).toEqual(new Date(2026, 11, 7, 8, 0));
    // On a Wednesday, the coming Monday.
    expect(snoozePresets(new Date(2026, 11, 2, 9, 0)).nextWeek).toEqual(new Date(2026, 11, 7, 8, 0));
    expect(snoozePresets(new Date(2026, 10, 29, 22, 0)).later).toBeNull();
    // On a Monday, Next week is the Monday after.
    expect(snoozePresets(new Date(2026, 10, 30, 9, 0)).nextWeek).toEqual(new Date(2026, 11, 7, 8, 0));
  });
});

describe('snooze on the mail screen', () => {
  it('snoozes the selected rows until tomorrow 08:00 with the offset, and Undo unsnoozes them', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 2”' }));
    const menu = await openMenu('Snooze');
    fireEvent.click(within(menu).getByRole('menuitem', { name: /Tomorrow/ }));
    await waitFor(() => expect(calls.some((call) => call.route === 'snoozeMessages')).toBe(true));
    const request = calls.find((call) => call.route === 'snoozeMessages')!.body as {
      folder_messages: unknown;
      until: string;
    };
    expect(request.folder_messages).toEqual([{ folder_id: 11, message_uids: [2] }]);
    expect(request.until).toMatch(/^\d{4}-\d\d-\d\dT08:00:00[+-]\d\d:\d\d$/);
    expect(Date.parse(request.until)).toBeGreaterThan(Date.now());

    await waitFor(() => expect(useNotices.getState().queue[0]?.text).toMatch(/^Snoozed until /));
    await act(() => useNotices.getState().queue[0]!.undo!());
    expect(calls.map(routeAndBody)).toContainEqual({
      route: 'unsnoozeMessages',
      body: { folder_messages: [{ folder_id: 16, message_uids: [102] }] },
    });
  });

  it('offers neither Scheduled nor Snoozed as a place to move to', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    // Both are in the sidebar, in the system order.
    const tree = screen.getAllByRole('treeitem').map((item) => item.textContent);
    expect(tree.join('|')).toMatch(/Inbox.*Scheduled.*Snoozed.*Trash/);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 2”' }));
    const menu = await openMenu('Move to folder');
    const names = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(names).toEqual(['Trash', 'Work']);
  });

  it('a row in Snoozed shows when it comes back, and its reader has the banner and Unsnooze', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/16/1/9');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    const row = within(grid).getAllByRole('row')[0]!;
    expect(row.getAttribute('aria-label')).toMatch(/until /);
    expect(row.querySelector(`time[datetime="${until}"]`)?.textContent).toMatch(/^until /);
    const reader = await screen.findByRole('article', { name: 'Message' });
    expect(await within(reader).findByText(/^Snoozed until /)).toBeTruthy();
    fireEvent.click(within(reader).getByRole('button', { name: 'Unsnooze' }));
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'unsnoozeMessages',
        body: { folder_messages: [{ folder_id: 16, message_uids: [9] }] },
      }),
    );
    // No snooze menu for what is already snoozed.
    expect(within(reader).queryByRole('button', { name: 'Snooze' })).toBeNull();
  });

  it('in Snoozed the selection offers Unsnooze and Delete, not Move or Spam (its way out is Unsnooze)', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/16/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 9”' }));
    const unsnooze = await screen.findByRole('button', { name: 'Unsnooze' });
    expect(screen.getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Move to folder' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move to Junk' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Snooze' })).toBeNull();
    fireEvent.click(unsnooze);
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'unsnoozeMessages',
        body: { folder_messages: [{ folder_id: 16, message_uids: [9] }] },
      }),
    );
  });

  it('B opens the Snooze menu for the selection (И on a Russian layout); not while typing', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 2”' }));
    const trigger = await screen.findByRole('button', { name: 'Snooze' });
    expect(trigger.getAttribute('aria-keyshortcuts')).toBe('b');
    expect(trigger.getAttribute('title')).toBe('Snooze (B)');
    // Typed into a field, the key is the field's.
    const search = screen.getByRole('searchbox', { name: 'Search mail' });
    fireEvent.keyDown(search, { key: 'b', code: 'KeyB' });
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.keyDown(window, { key: 'и', code: 'KeyB' });
    const menu = await screen.findByRole('menu');
    fireEvent.click(within(menu).getByRole('menuitem', { name: /Tomorrow/ }));
    await waitFor(() => expect(calls.some((call) => call.route === 'snoozeMessages')).toBe(true));
    expect(
      (calls.find((call) => call.route === 'snoozeMessages')!.body as { folder_messages: unknown })
        .folder_messages,
    ).toEqual([{ folder_id: 11, message_uids: [2] }]);
  });

  it('marks a message back from a snooze or a follow-up reminder, in the row and the reader', async () => {
    mockServer({
      inbox: [
        listItem(3, { returned: { for: 'snooze', at: '2026-11-29T10:00:00Z' } }),
        listItem(2, { returned: { for: 'follow_up', at: '2026-11-29T10:00:00Z' } }),
        listItem(1),
      ],
    });
    renderAt('/mail/folder/all/11/1/2');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    const rows = within(grid).getAllByRole('row');
    expect(within(rows[0]!).getByText('Back from snooze')).toBeTruthy();
    expect(within(rows[1]!).getByText('No reply yet')).toBeTruthy();
    expect(within(rows[2]!).queryByText(/Back from snooze|No reply yet/)).toBeNull();
    const reader = await screen.findByRole('article', { name: 'Message' });
    expect(await within(reader).findByText('No reply yet — you asked to be reminded')).toBeTruthy();
  });
});

describe('the picked time', () => {
  it('reads a datetime-local value, seconds optional, in the browser zone', () => {
    expect(fromLocalInput('2026-12-01T09:30')).toEqual(new Date(2026, 11, 1, 9, 30));
    expect(fromLocalInput('2026-12-01T09:30:15')).toEqual(new Date(2026, 11, 1, 9, 30, 15));
    expect(fromLocalInput('')).toBeNull();
  });
});
