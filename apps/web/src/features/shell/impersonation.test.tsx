import { beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import type { AccessResponse, SharedMailbox } from '@mailroom/protocol';
import { folder, testUser } from '../../test/fixtures';
import { fakeApi, routeAndBody } from '../../test/fake-api';
import { renderAt, setUpScreenTests } from '../../test/render-app';
import { mailboxNavigation, sharedMailboxesKey } from './impersonation';
import { shellLiveHandler } from './live';

setUpScreenTests();
// The menu's chunks (Radix, the items) take seconds to transform the first time: not a test's time.
beforeAll(async () => {
  await Promise.all([import('../../ui/dropdown-impl'), import('./user-menu-items')]);
}, 30_000);

/** The shell's start-up data for `user`, the shared mailboxes, and the switch answering the user of the new mailbox. */
function serve(user: AccessResponse, shared: SharedMailbox[] = []) {
  const { calls } = fakeApi(
    {
      sharedMailboxes: { mailboxes: shared },
      impersonate: user,
      endImpersonation: user,
      folderMessages: { messages: [], total: 0, all: 0 },
    },
    { shell: { folders: [folder(11, 'INBOX', 'inbox')], user } },
  );
  return calls;
}

/** Opens the account menu: its chunk loads on the first click (slow the first time), Radix opens on pointer down. */
async function openAccountMenu() {
  fireEvent.click(await screen.findByRole('button', { name: 'Account menu' }, { timeout: 5_000 }));
  await waitFor(
    () => {
      if (!screen.queryByRole('menu'))
        fireEvent.pointerDown(screen.getByRole('button', { name: 'Account menu', hidden: true }), {
          button: 0,
          ctrlKey: false,
        });
      expect(screen.queryByRole('menu')).not.toBeNull();
    },
    { timeout: 5_000 },
  );
  return screen.getByRole('menu');
}

const bob: SharedMailbox = { member_id: '210987654321', email: 'bob@mailroom.test', name: 'Bob Stone' };
const delegate: AccessResponse = {
  ...testUser,
  info: { alias: null, impersonator: { member_id: '333344445555', email: 'carol@mailroom.test' } },
};

describe('mailboxes shared with me', () => {
  it('the list is read when the account menu opens, and choosing one opens that mailbox in a new load', async () => {
    const assign = vi.spyOn(mailboxNavigation, 'assign').mockImplementation(() => {});
    const calls = serve(testUser, [bob]);
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('tree', { name: 'Folders' }, { timeout: 5_000 });
    expect(calls.map((call) => call.route)).not.toContain('sharedMailboxes');
    const menu = await openAccountMenu();
    expect(within(menu).getByText('Mailboxes shared with me')).toBeTruthy();
    fireEvent.click(await within(menu).findByRole('menuitem', { name: 'Open the mailbox of Bob Stone' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/mail'));
    expect(calls.filter((call) => call.method === 'POST').map(routeAndBody)).toEqual([
      { route: 'impersonate', body: { member_id: '210987654321' } },
    ]);
  });

  it('none shared says so', async () => {
    serve(testUser, []);
    renderAt('/mail/folder/all/11/1');
    const menu = await openAccountMenu();
    expect(await within(menu).findByText('None yet')).toBeTruthy();
  });
});

describe("in another member's mailbox", () => {
  it('a bar says whose mailbox it is and leads back to my own', async () => {
    const assign = vi.spyOn(mailboxNavigation, 'assign').mockImplementation(() => {});
    const calls = serve(delegate);
    renderAt('/mail/folder/all/11/1');
    const bar = await screen.findByTestId('impersonation-bar', undefined, { timeout: 5_000 });
    expect(bar.textContent).toContain(
      'This is the mailbox of Ann Lee <ann@mailroom.test>. You opened it as carol@mailroom.test.',
    );
    fireEvent.click(within(bar).getByRole('button', { name: 'Back to my mailbox' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/mail'));
    expect(calls.filter((call) => call.method === 'POST').map(routeAndBody)).toEqual([
      { route: 'endImpersonation', body: undefined },
    ]);
  });

  it('the account menu offers the way back instead of the shared mailboxes', async () => {
    const calls = serve(delegate, [bob]);
    renderAt('/mail/folder/all/11/1');
    const menu = await openAccountMenu();
    expect(within(menu).getByRole('menuitem', { name: 'Back to my mailbox' })).toBeTruthy();
    expect(within(menu).queryByText('Mailboxes shared with me')).toBeNull();
    expect(calls.map((call) => call.route)).not.toContain('sharedMailboxes');
  });

  it('my own mailbox has no bar', async () => {
    serve(testUser);
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('tree', { name: 'Folders' }, { timeout: 5_000 });
    expect(screen.queryByTestId('impersonation-bar')).toBeNull();
  });
});

describe('shared mailboxes on the websocket', () => {
  it("a grant or revoke by another member reads the menu's list again; other parts leave it", () => {
    const client = new QueryClient();
    client.setQueryData([...sharedMailboxesKey], [bob]);
    const stale = () => client.getQueryState([...sharedMailboxesKey])?.isInvalidated;
    shellLiveHandler.onEvent({ event: 'updateAccount', part: 'security' }, client);
    shellLiveHandler.onEvent({ event: 'updateMailboxList' }, client);
    expect(stale()).toBe(false);
    shellLiveHandler.onEvent({ event: 'updateAccount', part: 'shared' }, client);
    expect(stale()).toBe(true);
  });
});
