import { formatListDate } from '@mailroom/protocol';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { type Label, type MailListItem } from '@mailroom/protocol';
import { failSlowly, folder, listItem, openedMail, testAccount } from '../../test/fixtures';
import { fakeApi, routeAndBody, answerEach, mailActionRoutes } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';
import { useNotices } from '../../ui/notices-store';
import { useSelection } from './selection-store';

const account = testAccount({ per_page: 3 });
const folders = [folder(11, 'INBOX', 'inbox', { total: 5 }), folder(14, 'INBOX.Sent', 'sent', { total: 1 })];
const labels: Label[] = [
  { id: 7, name: 'Work', color: '#336699', search_field: 'body', search_content: '', folder_id: null },
  { id: 8, name: 'Home', color: '#e66465', search_field: 'body', search_content: '', folder_id: null },
];

const item = (uid: number, labelIds: number[] = []) => listItem(uid, { labels: labelIds });
const chained: MailListItem = {
  ...item(5),
  threads: [
    {
      id: 9,
      uid: 9,
      folder_id: 11,
      subject: 'Subject 5',
      from: [],
      created_at: '2026-01-01T00:00:00Z',
      flags: { seen: false, flagged: false, draft: false },
      labels: [],
    },
    {
      id: 20,
      uid: 20,
      folder_id: 14,
      subject: 'Subject 5',
      from: [],
      created_at: '2026-01-01T00:00:00Z',
      flags: { seen: true, flagged: true, draft: false },
      labels: [8],
    },
  ],
};
const rows = [chained, item(4, [7]), item(3), item(2), item(1)];

function mockServer({ markFails = false, list: listed = rows } = {}) {
  const api = fakeApi(
    {
      ...answerEach(mailActionRoutes, { ok: true }),
      folderMessages: ({ params, query }) => {
        if (params.folder_id !== '11') return undefined;
        const page = Number(query.page);
        const limit = Number(query.limit);
        return { messages: listed.slice((page - 1) * limit, page * limit), total: 5, all: 5 };
      },
      message: ({ params }) => {
        if (params.folder_id !== '11') return { ok: true };
        return {
          message: openedMail(
            listed.find((row) => row.uid === Number(params.uid))!,
            'Body',
          ),
        };
      },
      markMessages: () => (markFails ? failSlowly() : { ok: true }),
    },
    { shell: { account, folders, labels } },
  );
  return api.calls;
}

/** The colour dots of a row's labels carry the label names. */
function rowLabels(uid: number): string[] {
  const row = screen.getByRole('row', { name: new RegExp(`Subject ${uid}`) });
  return [...row.querySelectorAll('[title]')]
    .map((element) => element.getAttribute('aria-label'))
    .filter((name): name is string => name === 'Work' || name === 'Home');
}

async function openLabelMenu() {
  // The first click loads the menu's chunk; Radix opens on pointer down once it is there.
  fireEvent.click(await screen.findByRole('button', { name: 'Add label' }));
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  if (!screen.queryByRole('menu')) {
    const trigger = screen.getByRole('button', { name: 'Add label', hidden: true });
    fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false });
  }
  return screen.findByRole('menu');
}

setUpScreenTests();

describe('labels on messages', () => {
  it('adds a label to the selection from the toolbar menu at once and tells the server', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 5”' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 3”' }));
    const menu = await openLabelMenu();
    fireEvent.click(await within(menu).findByRole('menuitemcheckbox', { name: 'Home' }));
    await waitFor(() => expect(rowLabels(5)).toEqual(['Home']));
    expect(rowLabels(3)).toEqual(['Home']);
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'markMessages',
        body: { flag: 'label', label_id: 8, folder_messages: [{ folder_id: 11, message_uids: [5, 3] }] },
      }),
    );
  });

  it('labels the whole folder through the bulk call after select-all', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    useSelection.getState().set(new Set(['11:5', '11:4', '11:3']), true);
    const menu = await openLabelMenu();
    fireEvent.click(await within(menu).findByRole('menuitemcheckbox', { name: 'Work' }));
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'bulkAction',
        body: {
          request_type: 'mark',
          request_params: { flag: 'label', label_id: 7 },
          request: { page: 1, limit: 3, folder_id: 11 },
        },
      }),
    );
  });

  it('removes a label from the reader and puts it back when the server refuses', async () => {
    const calls = mockServer({ markFails: true });
    renderAt('/mail/folder/all/11/1/4');
    const reader = await screen.findByRole('article', { name: 'Message' });
    const remove = await within(reader).findByRole('button', { name: 'Remove label “Work”' });
    expect(rowLabels(4)).toEqual(['Work']);
    fireEvent.click(remove);
    await waitFor(() =>
      expect(within(reader).queryByRole('button', { name: 'Remove label “Work”' })).toBeNull(),
    );
    expect(rowLabels(4)).toEqual([]);
    expect(calls.map(routeAndBody)).toContainEqual({
      route: 'markMessages',
      body: { flag: 'unlabel', label_id: 7, folder_messages: [{ folder_id: 11, message_uids: [4] }] },
    });
    // Rolled back on the failure.
    expect(await within(reader).findByRole('button', { name: 'Remove label “Work”' })).toBeTruthy();
    expect(rowLabels(4)).toEqual(['Work']);
    await waitFor(() => expect(useNotices.getState().queue.length).toBeGreaterThan(0));
  });
});

describe('chains', () => {
  it('opens a chain under its row; a member in another folder opens there', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    expect(within(grid).getAllByRole('row')).toHaveLength(3);
    const badge = within(grid).getByRole('button', { name: 'Open the chain (3 messages)' });
    expect(badge.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(badge);
    const members = within(grid).getAllByRole('row', { name: /^In the chain: Subject 5/ });
    // Each member line names its own subject, sender, folder and date (SPEC §9 list format).
    const date = formatListDate('2026-01-01T00:00:00Z', new Date(), 'en');
    expect(members.map((row) => row.getAttribute('aria-label'))).toEqual([
      `In the chain: Subject 5, Inbox, ${date}, unread`,
      `In the chain: Subject 5, Sent, ${date}, flagged`,
    ]);
    expect(within(grid).getByRole('button', { name: 'Close the chain (3 messages)' })).toBeTruthy();
    fireEvent.click(members[1]!);
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/14/1/20'));
  });

  it('a chain is unread while any of its messages is, and shows the time of its latest, a reply in Sent included', async () => {
    const reply = { ...chained.threads![1]!, created_at: '2026-11-25T09:00:00Z' };
    mockServer({ list: [{ ...chained, threads: [chained.threads![0]!, reply] }, ...rows.slice(1)] });
    renderAt('/mail/folder/all/11/1');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    const latest = formatListDate('2026-11-25T09:00:00Z', new Date(), 'en');
    // The newest message of the row (uid 5) is read; an older one (uid 9) is not.
    const row = within(grid).getByRole('row', { name: /^Sender 5, Subject 5/ });
    expect(row.getAttribute('aria-label')).toBe(`Sender 5, Subject 5, ${latest}, unread`);
    expect(within(row).getByText(latest)).toBeTruthy();
  });

  it('still asks before deleting a chain', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 5”' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete the whole chain?')).toBeTruthy();
  });
});
