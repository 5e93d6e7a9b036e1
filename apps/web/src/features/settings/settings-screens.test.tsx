import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Account, Folder, Label, Profile, Settings } from '@mailroom/protocol';
import { apiError, folder, json, testAccount } from '../../test/fixtures';
import { fakeApi, sent, type Sent } from '../../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../../test/render-app';
import { useNotices } from '../../ui/notices-store';

setUpScreenTests();
afterEach(() => {
  delete document.documentElement.dataset.theme;
});

const primary: Profile = { id: 1, name: 'Ann Lee', email: 'ann@mailroom.test', signature: '', default: true };
const desk: Profile = {
  id: 2,
  name: 'Support',
  email: 'desk@mailroom.test',
  signature: '<p>Regards</p>',
  default: false,
};

function account(profiles: Profile[] = [primary], settings: Partial<Settings> = {}): Account {
  return { ...testAccount(settings), aliases: [{ id: 5, email: 'desk@mailroom.test' }], profiles };
}

const tree: Folder[] = [
  {
    ...folder(11, 'INBOX', 'inbox', { unread: 2, total: 9 }),
    subfolders: [
      {
        ...folder(12, 'INBOX.Work', null, { unread: 1, total: 4 }),
        subfolders: [folder(14, 'INBOX.Work.Clients', null, { total: 1 })],
      },
      folder(13, 'INBOX.Trash', 'trash', { total: 3 }),
    ],
  },
];
const finance: Label = {
  id: 7,
  name: 'Finance',
  color: '#e66465',
  search_field: 'body',
  search_content: 'invoice',
  folder_id: null,
};

/**
 * The API the settings screens talk to: the shell's data, and `answer` for the writes; every write is recorded.
 */
function serve(
  data: { account?: Account; folders?: Folder[]; labels?: Label[] },
  answer: (call: Sent) => Response | undefined = () => undefined,
) {
  const writes: Sent[] = [];
  fakeApi(
    { folderMessages: { messages: [], total: 0, all: 0 } },
    {
      shell: { folders: data.folders ?? tree, labels: data.labels ?? [], account: data.account },
      onRequest: (request) => {
        if (request.method === 'GET') return undefined;
        const write = sent(request);
        writes.push(write);
        return answer(write) ?? json({ ok: true });
      },
    },
  );
  return writes;
}

const errorText = () => useNotices.getState().queue.map((notice) => notice.text);

describe('settings/main', () => {
  it('turning conversations on saves it at once and the switch shows it', async () => {
    const writes = serve({ account: account() }, ({ route, body }) =>
      route === 'changeSettings'
        ? json({ settings: { ...testAccount().settings, ...(body as object) } })
        : undefined,
    );
    renderAt('/settings/main');
    const conversations = await screen.findByRole('switch', { name: /^Conversations/ }, { timeout: 5_000 });
    expect((conversations as HTMLInputElement).checked).toBe(false);
    fireEvent.click(conversations);
    await waitFor(() => expect((conversations as HTMLInputElement).checked).toBe(true));
    await waitFor(() =>
      expect(writes).toEqual([{ route: 'changeSettings', body: { message_thread: true } }]),
    );
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('every setting has its control', async () => {
    serve({ account: account() });
    renderAt('/settings/main');
    await screen.findByRole('heading', { name: 'General' }, { timeout: 5_000 });
    for (const name of [
      /^Messages per page/,
      /^Remote images/,
      /^Add my signature to/,
      /^Language/,
      /^Theme/,
      /^New mail in the wallet application/,
    ])
      expect(screen.getByRole('combobox', { name })).toBeTruthy();
    for (const name of [
      /^Conversations/,
      /^Unread first/,
      /^Message preview/,
      /^Compact rows/,
      /^Addresses in a dropdown/,
      /^Signature above the quote/,
    ])
      expect(screen.getByRole('switch', { name })).toBeTruthy();
  });

  it('choosing the dark theme dresses the page at once', async () => {
    const writes = serve({ account: account() }, ({ body }) =>
      json({ settings: { ...testAccount().settings, ...(body as object) } }),
    );
    renderAt('/settings/main');
    const theme = await screen.findByRole('combobox', { name: /^Theme/ }, { timeout: 5_000 });
    fireEvent.change(theme, { target: { value: 'dark' } });
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(writes.map((w) => w.body)).toEqual([{ theme: 'dark' }]);
  });

  it('a save the server refuses puts the setting back and says why', async () => {
    serve({ account: account() }, () => apiError(403, 'forbidden', 'Forbidden'));
    renderAt('/settings/main');
    const unread = await screen.findByRole('switch', { name: /^Unread first/ }, { timeout: 5_000 });
    fireEvent.click(unread);
    await waitFor(() => expect((unread as HTMLInputElement).checked).toBe(false));
    await waitFor(() => expect(errorText().length).toBeGreaterThan(0));
  });
});

describe('settings/profiles', () => {
  it('lists the default first with its badge', async () => {
    serve({ account: account([desk, primary]) });
    renderAt('/settings/profiles');
    const list = await screen.findByRole('list', { name: 'Profiles, the default first' }, { timeout: 5_000 });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Ann Lee', 'Support']);
    expect(within(items[0]!).getByText('Default')).toBeTruthy();
    expect(within(items[1]!).queryByText('Default')).toBeNull();
  });

  it('the only profile cannot be deleted', async () => {
    serve({ account: account([primary]) });
    renderAt('/settings/profiles');
    const only = await screen.findByRole('button', { name: 'Delete “Ann Lee”' }, { timeout: 5_000 });
    expect((only as HTMLButtonElement).disabled).toBe(true);
  });

  it('making a profile the default sends default: true and shows the answer', async () => {
    const writes = serve({ account: account([primary, desk]) }, ({ route, params }) =>
      route === 'updateProfile' && params?.id === '2'
        ? json({
            profiles: [
              { ...desk, default: true },
              { ...primary, default: false },
            ],
          })
        : undefined,
    );
    renderAt('/settings/profiles');
    fireEvent.click(
      await screen.findByRole('button', { name: 'Make “Support” the default' }, { timeout: 5_000 }),
    );
    await waitFor(() =>
      expect(writes).toEqual([{ route: 'updateProfile', params: { id: '2' }, body: { default: true } }]),
    );
    const list = screen.getByRole('list', { name: 'Profiles, the default first' });
    await waitFor(() =>
      expect(within(list).getAllByRole('listitem')[0]!.getAttribute('aria-label')).toBe('Support'),
    );
  });

  it('a new profile on an alias, made the default, is created with those fields and the list follows', async () => {
    const writes = serve({ account: account() }, ({ route, body }) =>
      route === 'createProfile'
        ? json({
            profiles: [
              { ...(body as Profile), id: 3 },
              { ...primary, default: false },
            ],
          })
        : undefined,
    );
    renderAt('/settings/profiles/create');
    fireEvent.change(await screen.findByLabelText('Display name', {}, { timeout: 5_000 }), {
      target: { value: ' Desk team ' },
    });
    const from = screen.getByLabelText<HTMLSelectElement>('From address');
    expect([...from.options].map((option) => option.value)).toEqual([
      'ann@mailroom.test',
      'desk@mailroom.test',
    ]);
    fireEvent.change(from, { target: { value: 'desk@mailroom.test' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Use for new messages (default profile)' }));
    await screen.findByRole('textbox', { name: 'Signature' });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/profiles'));
    expect(writes).toEqual([
      {
        route: 'createProfile',
        body: { name: 'Desk team', email: 'desk@mailroom.test', signature: '', default: true },
      },
    ]);
    const list = await screen.findByRole('list', { name: 'Profiles, the default first' });
    expect(within(list).getAllByRole('listitem')[0]!.getAttribute('aria-label')).toBe('Desk team');
  });

  it('an unknown profile id says so, with the way back', async () => {
    serve({ account: account() });
    renderAt('/settings/profiles/edit/99');
    expect(await screen.findByText('There is no such profile.', {}, { timeout: 5_000 })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Back to profiles' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/profiles'));
  });
});

describe('settings/folders', () => {
  it('shows the tree with counts; system folders are locked, own ones can be edited and deleted', async () => {
    serve({});
    renderAt('/settings/folders');
    const list = await screen.findByRole('list', { name: 'Folders' }, { timeout: 5_000 });
    const inbox = within(list).getByRole('listitem', { name: 'Inbox' });
    expect(within(inbox).getByText('2 unread · 9 in total')).toBeTruthy();
    expect(within(inbox).queryByRole('button', { name: /^Delete/ })).toBeNull();
    const clients = within(list).getByRole('listitem', { name: 'Clients' });
    expect(within(clients).getByRole('button', { name: 'Delete “Clients”' })).toBeTruthy();
    expect(within(clients).getByText('0 unread · 1 in total')).toBeTruthy();
  });

  it('deleting a folder with subfolders says first that they must go, never asking to delete its messages', async () => {
    const writes = serve({});
    renderAt('/settings/folders');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete “Work”' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole(
      'alertdialog',
      { name: '“Work” has subfolders' },
      { timeout: 5_000 },
    );
    expect(dialog.textContent).toContain('Delete its subfolders or move them elsewhere first');
    expect(dialog.textContent).not.toContain('every message');
    expect(within(dialog).queryByRole('button', { name: 'Delete' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes).toEqual([]);
  });

  it('renaming and moving a folder sends only what changed', async () => {
    const writes = serve({}, ({ route, params }) =>
      route === 'updateFolder' && params?.id === '14'
        ? json({ folder: folder(14, 'INBOX.Archive', null) })
        : undefined,
    );
    renderAt('/settings/folders/edit/14');
    const name = await screen.findByLabelText<HTMLInputElement>('Folder name', {}, { timeout: 5_000 });
    expect(name.value).toBe('Clients');
    const parent = screen.getByLabelText<HTMLSelectElement>('Inside');
    expect(parent.value).toBe('12');
    // Not into itself; system folders are not parents.
    expect([...parent.options].map((option) => option.textContent)).toEqual(['Top level', 'Work']);
    fireEvent.change(name, { target: { value: 'Archive' } });
    fireEvent.change(parent, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/folders'));
    expect(writes).toEqual([
      { route: 'updateFolder', params: { id: '14' }, body: { folder: { name: 'Archive', parent_id: null } } },
    ]);
  });

  it('a name with a dot is refused before anything is sent', async () => {
    const writes = serve({});
    renderAt('/settings/folders/create');
    fireEvent.change(await screen.findByLabelText('Folder name', {}, { timeout: 5_000 }), {
      target: { value: 'a.b' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(writes).toEqual([]);
  });
});

describe('settings/labels', () => {
  it('an empty list says so and offers to create one', async () => {
    serve({ labels: [] });
    renderAt('/settings/labels');
    expect(await screen.findByText(/Create one to mark/, {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create label' })).toBeTruthy();
  });

  it('a name missing or taken, or a query missing, is refused with the catalogue’s words', async () => {
    const writes = serve({ labels: [finance] });
    renderAt('/settings/labels/create');
    fireEvent.click(await screen.findByRole('button', { name: 'Create' }, { timeout: 5_000 }));
    expect(await screen.findByText("You didn't specify a name!")).toBeTruthy();
    expect(screen.getByText("You didn't specify a search query!")).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Label name'), { target: { value: 'FINANCE' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('A label with this name already exists')).toBeTruthy();
    expect(writes).toEqual([]);
  });

  it('recolouring from the palette and editing the saved search sends the label', async () => {
    const writes = serve({ labels: [finance] }, ({ route, params, body }) =>
      route === 'updateLabel' && params?.id === '7'
        ? json({ label: { ...finance, ...(body as { label: object }).label } })
        : undefined,
    );
    renderAt('/settings/labels/edit/7');
    fireEvent.click(await screen.findByRole('radio', { name: 'Blue' }, { timeout: 5_000 }));
    fireEvent.change(screen.getByLabelText('Look in'), { target: { value: 'subject' } });
    fireEvent.change(screen.getByLabelText('Only in folder'), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/labels'));
    expect(writes).toEqual([
      {
        route: 'updateLabel',
        params: { id: '7' },
        body: {
          label: {
            name: 'Finance',
            color: '#1c7ed6',
            search_field: 'subject',
            search_content: 'invoice',
            folder_id: 12,
          },
        },
      },
    ]);
  });
});
