import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Label } from '@mailroom/protocol';
import { folder, listItem, openedMail } from '../test/fixtures';
import { answerEach, fakeApi, mailActionRoutes } from '../test/fake-api';
import { matchRoute } from '../test/route-match';
import { currentPath, renderAt, setUpScreenTests } from '../test/render-app';
import { readCookie } from '../lib/cookies';

const folders = [folder(11, 'INBOX', 'inbox', { total: 3 }), folder(12, 'INBOX.Trash', 'trash')];
const labels: Label[] = [
  { id: 7, name: 'Work', color: '#336699', search_field: 'body', search_content: '', folder_id: null },
];
const rows = [listItem(3), listItem(2), listItem(1)];

/** The text of a search as typed: every character a path segment must carry through encoded and back. */
const ODD_TEXT = 'a/b 50% +1 ann@example.test привет %2F';

function mockServer() {
  const searches: { text?: string }[] = [];
  const list = { messages: rows, total: 3, all: 3 };
  fakeApi(
    {
      ...answerEach(mailActionRoutes, { ok: true }),
      searchMessages: ({ body }) => {
        searches.push(body as { text?: string });
        return list;
      },
      folderMessages: list,
      labelMessages: list,
      message: ({ params }) => {
        if (params.folder_id !== '11') return { ok: true };
        return { message: openedMail(listItem(Number(params.uid)), `Body of ${params.uid}`) };
      },
    },
    { shell: { folders, labels } },
  );
  return searches;
}

/** The search route for ODD_TEXT in the Inbox, as the search line builds it (SPEC §2). */
const oddSearchPath = `/mail/search/all/11/false/1/${encodeURIComponent(ODD_TEXT)}/false/true/true/true/false/false`;

/** Navigates the app already on screen, as a link does (a pushState the router hears). */
function goTo(path: string) {
  act(() => window.history.pushState(null, '', path));
}

async function historyGo(step: -1 | 1) {
  await act(async () => {
    const moved = new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    if (step === -1) window.history.back();
    else window.history.forward();
    await moved;
  });
}

setUpScreenTests();

describe('redirects (SPEC §2)', () => {
  it('/ goes to /mail, which opens the Inbox', async () => {
    mockServer();
    renderAt('/');
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1'));
    expect(await screen.findByRole('grid', { name: 'Messages' })).toBeTruthy();
  });

  it('/ carries fromRoot to /mail, which then honours the path saved before sign-in', async () => {
    document.cookie = `redirect=${encodeURIComponent(oddSearchPath)}; path=/`;
    const searches = mockServer();
    renderAt('/');
    await waitFor(() => expect(currentPath()).toBe(oddSearchPath));
    await waitFor(() => expect(searches.map((search) => search.text)).toEqual([ODD_TEXT]));
    expect(readCookie('redirect')).toBeNull();
  });

  it('/mail opened directly does not follow the saved path: only a landing from / does', async () => {
    document.cookie = 'redirect=%2Fcontacts; path=/';
    mockServer();
    renderAt('/mail');
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1'));
  });

  it('/settings goes to its first section, /settings/domains to the domain list', async () => {
    mockServer();
    renderAt('/settings');
    await waitFor(() => expect(currentPath()).toBe('/settings/main'));
    expect(await screen.findByRole('heading', { name: 'General' })).toBeTruthy();

    goTo('/settings/domains');
    await waitFor(() => expect(currentPath()).toBe('/settings/domains/list'));
    expect(await screen.findByRole('heading', { name: 'Domains' })).toBeTruthy();
  });

  it.each(['/no/such/page', '/settings/nope', '/mail/folder/all/11/1/5/extra', '/mail/elsewhere'])(
    'an unknown path (%s) goes to /mail and the Inbox',
    async (path) => {
      mockServer();
      renderAt(path);
      await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1'));
    },
  );
});

describe('route parameters', () => {
  it('a search typed with odd characters goes into the address encoded and comes back exactly', async () => {
    const searches = mockServer();
    renderAt('/mail/folder/all/11/1');
    const input = await screen.findByRole('searchbox', { name: 'Search mail' });
    fireEvent.change(input, { target: { value: ODD_TEXT } });
    fireEvent.submit(screen.getByRole('search', { name: 'Mail search' }));

    await waitFor(() => expect(currentPath()).toBe(oddSearchPath));
    await waitFor(() => expect(searches.map((search) => search.text)).toEqual([ODD_TEXT]));
    // The line, started afresh from the new route, shows the text as it was typed.
    await waitFor(() =>
      expect((screen.getByRole('searchbox', { name: 'Search mail' }) as HTMLInputElement).value).toBe(
        ODD_TEXT,
      ),
    );
  });

  it('a deep link to a message of a search decodes the text once and opens the message', async () => {
    const searches = mockServer();
    renderAt(`${oddSearchPath}/11-2`);
    const reader = await screen.findByRole('article', { name: 'Message' });
    expect(await within(reader).findByText('Body of 2')).toBeTruthy();
    expect(searches.map((search) => search.text)).toEqual([ODD_TEXT]);
    expect((screen.getByRole('searchbox', { name: 'Search mail' }) as HTMLInputElement).value).toBe(ODD_TEXT);
    expect(currentPath()).toBe(`${oddSearchPath}/11-2`);
  });

  it('an address typed unencoded (spaces, Cyrillic) is read the same as its encoded form', async () => {
    const searches = mockServer();
    renderAt('/mail/search/all/11/false/1/привет мир/false/false/true/false/false/false');
    await waitFor(() => expect(searches.map((search) => search.text)).toEqual(['привет мир']));
  });

  it('settings children take their own parameters, decoded', async () => {
    mockServer();
    renderAt('/settings/domains/dkim/42');
    expect(await screen.findByRole('heading', { name: /^DKIM keys of/ })).toBeTruthy();
    await waitFor(() =>
      expect(vi.mocked(fetch).mock.calls.map(([url]) => matchRoute('GET', String(url)))).toContainEqual(
        expect.objectContaining({ route: 'domain', params: { id: '42' } }),
      ),
    );

    goTo('/settings/profiles/edit/42');
    expect(await screen.findByText('There is no such profile.')).toBeTruthy();

    goTo(`/settings/collectors/confirm/${encodeURIComponent('ann+box@example.test')}`);
    expect(await screen.findByRole('heading', { name: 'Connect ann+box@example.test' })).toBeTruthy();

    goTo('/settings/domains/list/create');
    expect(await screen.findByRole('heading', { name: 'Add a domain' })).toBeTruthy();
  });

  it("a settings section's menu link is current on the section and on its children", async () => {
    mockServer();
    renderAt('/settings/folders/create');
    const nav = await screen.findByRole('navigation', { name: 'Settings sections' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Folders']);
    expect(current[0]!.className.split(' ')).toContain('active');
    fireEvent.click(within(nav).getByRole('link', { name: 'Labels' }));
    await waitFor(() => expect(currentPath()).toBe('/settings/labels'));
    expect(within(nav).getByRole('link', { name: 'Labels' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Folders' }).getAttribute('aria-current')).toBeNull();
  });
});

describe('moving between mail routes', () => {
  it('back and forward return to the list and to the message, with the shell and the list kept', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1');
    const grid = await screen.findByRole('grid', { name: 'Messages' });
    const sidebar = screen.getByTestId('sidebar');
    fireEvent.click(within(grid).getAllByRole('row')[1]!);
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/11/1/2'));
    expect(await screen.findByText('Body of 2')).toBeTruthy();

    await historyGo(-1);
    expect(currentPath()).toBe('/mail/folder/all/11/1');
    expect(await screen.findByText('No message selected')).toBeTruthy();
    await historyGo(1);
    expect(currentPath()).toBe('/mail/folder/all/11/1/2');
    expect(await screen.findByText('Body of 2')).toBeTruthy();
    // Neither the shell nor the list was drawn anew: the same elements throughout.
    expect(screen.getByTestId('sidebar')).toBe(sidebar);
    expect(screen.getByRole('grid', { name: 'Messages' })).toBe(grid);
  });

  it('the shell stays mounted from a folder to a label, to settings and back', async () => {
    mockServer();
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    const sidebar = screen.getByTestId('sidebar');
    fireEvent.click(screen.getByRole('link', { name: 'Work' }));
    await waitFor(() => expect(currentPath()).toBe('/mail/label/all/7/1'));
    expect(screen.getByRole('link', { name: 'Work' }).getAttribute('aria-current')).toBe('page');
    goTo('/settings/main');
    expect(await screen.findByRole('heading', { name: 'General' })).toBeTruthy();
    await historyGo(-1);
    expect(currentPath()).toBe('/mail/label/all/7/1');
    await screen.findByRole('grid', { name: 'Messages' });
    expect(screen.getByTestId('sidebar')).toBe(sidebar);
  });

  it('a link to the page already shown adds no history entry', async () => {
    mockServer();
    // A fresh entry drops the forward entries earlier tests left, so history.length counts from here.
    window.history.pushState(null, '', '/');
    renderAt('/mail/folder/all/11/1');
    await screen.findByRole('grid', { name: 'Messages' });
    const entries = window.history.length;
    fireEvent.click(screen.getByRole('treeitem', { name: /^Inbox/ }));
    expect(currentPath()).toBe('/mail/folder/all/11/1');
    expect(window.history.length).toBe(entries);
    fireEvent.click(screen.getByRole('treeitem', { name: /^Trash/ }));
    await waitFor(() => expect(currentPath()).toBe('/mail/folder/all/12/1'));
    expect(window.history.length).toBe(entries + 1);
  });
});
