import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { formatFullDate, type Account, type AccessResponse } from '@mailroom/protocol';
import {
  apiError,
  failSlowly,
  folder,
  listItem,
  openedMail,
  testAccount,
  testUser,
} from '../../test/fixtures';
import { answerEach, fakeApi, mailActionRoutes, routeAndBody, sent } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';
import { createQueryClient } from '../../app/query-client';
import { useNotices } from '../../ui/notices-store';
import { useCompose } from '../compose/compose-store';
import { useSelection } from './selection-store';
import { warmUpMail } from '../../app/warm-up';

const user = testUser;
const account = testAccount({ per_page: 3 });
const folders = [
  folder(11, 'INBOX', 'inbox', { total: 5 }),
  folder(12, 'INBOX.Trash', 'trash'),
  folder(13, 'INBOX.Junk', 'junk'),
  folder(14, 'INBOX.Drafts', 'draft'),
];

const item = (uid: number, seen = true) => listItem(uid, { flags: { seen, flagged: false, draft: false } });
const all = [item(5, false), item(4), item(3), item(2), item(1)];

interface Options {
  markFails?: boolean;
  missing?: number;
  aliasOnly?: boolean;
  listFails?: boolean;
  many?: boolean;
}

function mockServer({
  markFails = false,
  missing,
  aliasOnly = false,
  listFails = false,
  many = false,
}: Options = {}) {
  const rows = many ? Array.from({ length: 1000 }, (_, index) => item(1000 - index)) : all;
  const me: AccessResponse = aliasOnly ? { ...user, info: { alias: 'ann.alias@mailroom.test' } } : user;
  const myAccount: Account = aliasOnly
    ? { ...account, aliases: [{ id: 21, email: 'ann.alias@mailroom.test' }] }
    : account;
  /** Messages moved away from folder 11: asking for them there answers 404, as the server does. */
  const movedAway = new Set<number>();
  return fakeApi(
    {
      ...answerEach(mailActionRoutes, { ok: true }),
      folderMessages: ({ params, query }) => {
        if (params.folder_id !== '11') return undefined;
        if (listFails) return apiError(500, 'internal_error', 'boom');
        const page = Number(query.page);
        const limit = Number(query.limit);
        return {
          messages: rows.slice((page - 1) * limit, page * limit),
          total: rows.length,
          all: rows.length,
        };
      },
      message: ({ params }) => {
        if (params.folder_id !== '11') return { ok: true };
        const uid = Number(params.uid);
        if (uid === missing || movedAway.has(uid)) return apiError(404, 'message_not_found', 'Not found');
        return { message: openedMail(item(uid, uid !== 5), `Body of ${uid}`) };
      },
      markMessages: () => (markFails ? failSlowly() : { ok: true }),
      moveMessages: ({ body }) => {
        const { folder_messages } = body as { folder_messages: { message_uids: number[] }[] };
        for (const group of folder_messages) for (const uid of group.message_uids) movedAway.add(uid);
        return { ok: true };
      },
    },
    { shell: { user: me, account: myAccount, folders } },
  ).calls;
}

setUpScreenTests();

/** jsdom has no DataTransfer: this one keeps what the dragged row writes for the folder it is dropped on. */
class TestDataTransfer {
  private readonly data = new Map<string, string>();
  dropEffect = 'none';
  effectAllowed = 'all';
  get types(): string[] {
    return [...this.data.keys()];
  }
  setData(type: string, value: string) {
    this.data.set(type, value);
  }
  getData(type: string): string {
    return this.data.get(type) ?? '';
  }
}

/** Drags a row of the list onto a folder of the sidebar as the browser does: dragstart, dragover, drop. */
function dragRowToFolder(subject: string, folderName: string) {
  const row = screen.getByRole('row', { name: new RegExp(subject) });
  const target = screen.getByRole('treeitem', { name: folderName });
  const dataTransfer = new TestDataTransfer();
  fireEvent.dragStart(row, { dataTransfer });
  fireEvent.dragEnter(target, { dataTransfer });
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
}

describe('mail screen', () => {
  it('lists the page with sender and subject, and the range', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    const rows = await within(grid).findAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.getAttribute('aria-label')).toMatch(/Sender 5, Subject 5, .*unread/);
    expect(screen.getByText('1–3 of 5')).toBeTruthy();
    // The short list date carries the full date as its tooltip.
    const time = rows[0]!.querySelector('time')!;
    expect(time.getAttribute('dateTime')).toBe('2026-11-20T10:00:00Z');
    expect(time.getAttribute('title')).toBe(formatFullDate('2026-11-20T10:00:00Z', new Date(), 'en'));
  });

  it('renders only the rows in view of a 1,000-row page', async () => {
    mockServer({ many: true });
    renderAt('/mail/folder/all/11/1?limit=1000');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    expect(grid.getAttribute('aria-rowcount')).toBe('1000');
    // The virtualiser replaces the first 100 rows drawn while its chunk loads with the ~20 in view.
    await waitFor(() => expect(within(grid).getAllByRole('row').length).toBeLessThan(40));
    expect(within(grid).getAllByRole('row')[0]!.getAttribute('aria-label')).toMatch(/Subject 1000/);
  });

  it('opens a message, marks it read at once and tells the server', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(within(grid).getAllByRole('row')[0]!);
    const reader = await screen.findByRole('article', { name: 'Message' });
    expect(await within(reader).findByText('Body of 5')).toBeTruthy();
    expect(currentPath()).toBe('/mail/folder/all/11/1/5');
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'markMessages',
        body: { flag: 'seen', folder_messages: [{ folder_id: 11, message_uids: [5] }] },
      }),
    );
    await waitFor(() =>
      expect(within(grid).getAllByRole('row')[0]!.getAttribute('aria-label')).not.toMatch(/unread/),
    );
  });

  it('rolls a flag back when the server refuses it', async () => {
    mockServer({ markFails: true });
    renderAt('/mail/folder/all/11/1/4');
    const reader = await screen.findByRole('article', { name: 'Message' });
    const flag = await within(reader).findByRole('button', { name: 'Flag' });
    fireEvent.click(flag);
    expect(await within(reader).findByRole('button', { name: 'Remove flag' })).toBeTruthy();
    expect(await within(reader).findByRole('button', { name: 'Flag' })).toBeTruthy();
    // The failure is shown in the error dialog (SPEC §8).
    await waitFor(() => expect(useNotices.getState().queue.length).toBeGreaterThan(0));
  });

  it('pages with the arrow keys across the page boundary', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1/3');
    await screen.findByRole('article', { name: 'Message' });
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/2/2'));
    fireEvent.keyDown(window, { key: 'ArrowUp' });
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1/3'));
  });

  it('opens the first message on arrow down when none is open', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.keyDown(window, { key: 'ArrowDown' });
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1/5'));
  });

  it('returns to the list when the message is gone (404)', async () => {
    mockServer({ missing: 4 });
    renderAt('/mail/folder/all/11/1/4');
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1'));
  });

  it('a link to a message in Drafts opens it in the compose window and keeps the list', async () => {
    mockServer();
    renderAt('/mail/folder/all/14/1/7');
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/14/1'));
    expect(useCompose.getState().open).toMatchObject({ mode: 0, draft: { folder_id: 14, uid: 7 } });
    useCompose.getState().closeCompose();
  });

  it('keeps an alias-only user on their alias, without folder or label creation', async () => {
    mockServer({ aliasOnly: true });
    renderAt('/mail/folder/all/11/1');
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/21/11/1'));
    await screen.findByRole('grid', { name: 'Messages' });
    expect(screen.queryByRole('button', { name: 'Create folder' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create label' })).toBeNull();
    // Alias-only users do not see labels: no 'Add label' among the selection's actions.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 4”' }));
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add label' })).toBeNull();
  });

  it('shows a failed list with a retry and the error dialog', async () => {
    mockServer({ listFails: true });
    renderAt('/mail/folder/all/11/1');
    expect(await screen.findByText('The messages could not be loaded.', {}, { timeout: 8000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again', hidden: true })).toBeTruthy();
    await waitFor(() => expect(useNotices.getState().queue.length).toBeGreaterThan(0));
  }, 15_000);

  it('deletes the selected messages with the Delete key', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 4”' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 3”' }));
    fireEvent.keyDown(document.body, { key: 'Delete' });
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'deleteMessages',
        body: { folder_messages: [{ folder_id: 11, message_uids: [4, 3] }] },
      }),
    );
  });
  it('a row dropped on a folder with select-all on moves the whole folder through the bulk call', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    // The select menu's 'All in this folder': its chunk loads on the first click, Radix opens on pointer down.
    fireEvent.click(screen.getByRole('button', { name: 'Select messages' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    if (!screen.queryByRole('menu')) {
      const trigger = screen.getByRole('button', { name: 'Select messages', hidden: true });
      fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false });
    }
    const menu = await screen.findByRole('menu');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'All in this folder' }));
    expect(await screen.findByText('Selected: 5')).toBeTruthy();

    dragRowToFolder('Subject 4', 'Trash');
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'bulkAction',
        body: {
          request_type: 'move',
          request_params: { destination_id: 12 },
          request: { page: 1, limit: 3, folder_id: 11 },
        },
      }),
    );
    // The folder-wide request, not the three rows of the page.
    expect(calls.some((call) => call.route === 'moveMessages')).toBe(false);
    expect(useSelection.getState().bulk).toBe(false);
  });

  it('a single unselected row dropped on a folder moves just that row', async () => {
    const calls = mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    dragRowToFolder('Subject 4', 'Trash');
    await waitFor(() =>
      expect(calls.map(routeAndBody)).toContainEqual({
        route: 'moveMessages',
        body: { destination_id: 12, folder_messages: [{ folder_id: 11, message_uids: [4] }] },
      }),
    );
    expect(calls.some((call) => call.route === 'bulkAction')).toBe(false);
  });
  it('the open message dropped on a folder leaves the reader for the list', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1/4');
    const reader = await screen.findByRole('article', { name: 'Message' });
    await within(reader).findByText('Body of 4');
    dragRowToFolder('Subject 4', 'Trash');
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1'));
  });

  it('opening /mail cold asks for the session, the folders and the Inbox page at once, and the screens use them', async () => {
    const calls = mockServer();
    document.cookie = 'isLogged=1; path=/';
    const client = createQueryClient();
    warmUpMail(client, { pathname: '/mail', search: '' });
    const asked = () => calls.map((call) => JSON.stringify(sent(call)));
    const startUp = (['access', 'account', 'rids', 'folders'] as const).map((route) =>
      JSON.stringify({ route }),
    );
    // Before anything is drawn: start-up and the folders side by side, then the Inbox's first page.
    expect(asked()).toEqual(startUp);
    const inboxPage = JSON.stringify({
      route: 'folderMessages',
      params: { folder_id: '11' },
      query: { a_id: 'all', page: '1', limit: '3' },
    });
    await waitFor(() => expect(asked()).toContain(inboxPage));

    renderAt('/mail', client);
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    expect(await within(grid).findAllByRole('row')).toHaveLength(3);
    expect(currentPath()).toBe('/mail/folder/all/11/1');
    // The screens found each answer in the cache under their own keys: nothing was asked twice.
    for (const request of [...startUp, inboxPage]) {
      expect(asked().filter((candidate) => candidate === request)).toHaveLength(1);
    }
  });

  it('a browser that was never signed in asks for nothing before start-up', () => {
    mockServer();
    warmUpMail(createQueryClient(), { pathname: '/mail', search: '' });
    expect(vi.mocked(fetch)).not.toHaveBeenCalled();
  });
});

/** Opens a Radix dropdown by its trigger's name (its items load on the first click; Radix opens on pointer down). */
async function openMenu(name: string) {
  fireEvent.click(screen.getByRole('button', { name }));
  await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
  if (!screen.queryByRole('menu')) {
    const trigger = screen.getByRole('button', { name, hidden: true });
    fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false });
  }
  return screen.findByRole('menu');
}

describe('the alias-only user (SPEC §6)', () => {
  it('sees no labels section and cannot create folders or labels', async () => {
    mockServer({ aliasOnly: true });
    renderAt('/mail/folder/21/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    expect(screen.queryByRole('heading', { name: 'Labels' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create folder' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create label' })).toBeNull();
  });

  it('the address selector is locked on their alias', async () => {
    mockServer({ aliasOnly: true });
    renderAt('/mail/folder/21/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    const selector = screen.getByRole('button', { name: 'Address' }) as HTMLButtonElement;
    expect(selector.disabled).toBe(true);
    expect(selector.textContent).toBe('ann.alias@mailroom.test');
  });

  it('the user menu shows no member ID', async () => {
    mockServer({ aliasOnly: true });
    renderAt('/mail/folder/21/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    const menu = await openMenu('Account menu');
    expect(await within(menu).findByRole('menuitem', { name: /Log out/ })).toBeTruthy();
    expect(within(menu).queryByText('Member ID')).toBeNull();
    expect(within(menu).queryByText(user.member_id!)).toBeNull();
  });

  it('the dots menu has neither contacts nor settings', async () => {
    mockServer({ aliasOnly: true });
    renderAt('/mail/folder/21/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    const menu = await openMenu('More actions');
    expect(within(menu).getByRole('menuitem', { name: 'About Mailroom' })).toBeTruthy();
    expect(within(menu).queryByRole('menuitem', { name: 'Contacts' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Settings' })).toBeNull();
  });

  it('cannot add messages to a folder: no Move to, and a drop on a folder moves nothing', async () => {
    const calls = mockServer({ aliasOnly: true });
    renderAt('/mail/folder/21/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select “Subject 4”' }));
    expect(await screen.findByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Move to folder' })).toBeNull();
    dragRowToFolder('Subject 4', 'Trash');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(calls.filter((call) => call.route === 'moveMessages' || call.route === 'bulkAction')).toEqual([]);
  });

  it("on another alias's address goes back to their own mail", async () => {
    mockServer({ aliasOnly: true });
    renderAt('/mail/folder/99/11/1');
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/21/11/1'));
  });

  it('is kept out of settings (aliases too) and contacts', async () => {
    for (const path of ['/settings/aliases', '/settings/aliases/create', '/contacts']) {
      mockServer({ aliasOnly: true });
      const { unmount } = renderAt(path);
      await waitFor(() => expect(currentPath()).toBe('/mail/folder/21/11/1'));
      unmount();
    }
  });
});
