import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ApiError, routes, routeUrl } from '../api/client';
import { folder, json, testUser } from '../test/fixtures';
import { fakeApi, type FakeRoutes } from '../test/fake-api';
import { currentPath, renderAt, setUpScreenTests } from '../test/render-app';
import { readCookie } from '../lib/cookies';
import { startupStatus } from './startup';

/** Where Sign in leads (in English), coming back to `redirect`. */
const signInHref = (redirect: string) => routeUrl(routes.signIn, { query: { redirect, lang: 'en' } });

const folders = [
  folder(11, 'INBOX', 'inbox', { total: 40, unread: 2 }),
  folder(12, 'INBOX.Sent', 'sent', { total: 3 }),
];

const unauthorized = () =>
  json({ error: { message: 'Sign-in required', meta: { code: 401, i8s: 'expected_token' } } }, 401);

/** Signed in: the shell's data (and `routes`); signed out: every call is a 401. */
function mockServer(signedIn: boolean, answers: FakeRoutes = {}) {
  return signedIn ? fakeApi(answers, { shell: { folders } }) : fakeApi({}, { otherwise: unauthorized });
}

const path = currentPath;

setUpScreenTests();

describe('startupStatus (SPEC §4)', () => {
  const loaded = { status: 'success', error: null } as const;
  const pending = { status: 'pending', error: null } as const;
  const failed = (status: number) => ({ status: 'error', error: new ApiError(status, 'x') }) as const;

  it('stays empty until user, account and rid have all loaded, then succeeds', () => {
    expect(startupStatus({ parts: [loaded, loaded, pending], framed: false, isLogged: true })).toBe('empty');
    expect(startupStatus({ parts: [loaded, loaded, loaded], framed: false, isLogged: true })).toBe('success');
  });

  it('fails on an error, except inside a frame where the host page owns the failure', () => {
    expect(startupStatus({ parts: [loaded, failed(502), loaded], framed: false, isLogged: true })).toBe(
      'failed',
    );
    expect(startupStatus({ parts: [loaded, failed(502), loaded], framed: true, isLogged: true })).toBe(
      'empty',
    );
  });

  it('stays started when a refetch fails after everything loaded, unless it is a 401', () => {
    const refetchFailed = (status: number) => ({ ...failed(status), data: { loaded: true } }) as const;
    expect(
      startupStatus({ parts: [loaded, refetchFailed(502), loaded], framed: false, isLogged: true }),
    ).toBe('success');
    expect(
      startupStatus({ parts: [refetchFailed(401), loaded, loaded], framed: false, isLogged: true }),
    ).toBe('load_frame');
  });

  it('asks for sign-on (load_frame) on a 401 when the browser was signed in before', () => {
    expect(startupStatus({ parts: [failed(401), pending, pending], framed: false, isLogged: true })).toBe(
      'load_frame',
    );
    expect(startupStatus({ parts: [failed(401), pending, pending], framed: false, isLogged: false })).toBe(
      'failed',
    );
  });
});

describe('start-up in the browser', () => {
  it('shows the preloader, then the mail shell on the Inbox once everything has loaded', async () => {
    mockServer(true);
    renderAt('/mail');
    expect(screen.getByText('Loading…')).toBeTruthy();
    const tree = await screen.findByRole('tree', { name: 'Folders' });
    expect(tree).toBeTruthy();
    await waitFor(() => expect(path()).toBe('/mail/folder/all/11/1'));
    expect(screen.getByRole('treeitem', { name: /^Inbox, 2 unread/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Account menu' })).toBeTruthy();
  });

  it('on a 401 remembers the path in the redirect cookie and sends a visitor without isLogged to /about', async () => {
    mockServer(false);
    renderAt('/mail/folder/all/11/2');
    await waitFor(() => expect(path()).toBe('/about'));
    expect(readCookie('redirect')).toBe('/mail/folder/all/11/2');
    // Its Sign in comes back to the deep link (SPEC §2), not to the Inbox.
    const signIn = (await screen.findAllByRole('link', { name: 'Sign in' }))[0]!;
    expect(signIn.getAttribute('href')).toBe(signInHref('/mail/folder/all/11/2'));
  });

  it('on a 401 sends a browser that was signed in (isLogged cookie) to /login', async () => {
    document.cookie = 'isLogged=1; path=/';
    mockServer(false);
    renderAt('/settings/profiles');
    await waitFor(() => expect(path()).toBe('/login'));
    expect(readCookie('redirect')).toBe('/settings/profiles');
  });

  it('does not overwrite the redirect cookie or navigate away on /login', async () => {
    document.cookie = 'redirect=%2Fcontacts; path=/';
    mockServer(false);
    renderAt('/login?noredirect=true');
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(path()).toBe('/login?noredirect=true');
    expect(readCookie('redirect')).toBe('/contacts');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(signInHref('/contacts'));
  });

  it('after sign-in, / goes to the safe path saved in the redirect cookie and clears it', async () => {
    document.cookie = 'redirect=%2Fmail%2Ffolder%2Fall%2F12%2F1; path=/';
    mockServer(true);
    renderAt('/');
    await waitFor(() => expect(path()).toBe('/mail/folder/all/12/1'));
    expect(readCookie('redirect')).toBeNull();
  });

  it('refuses an unsafe saved path and lands on the Inbox', async () => {
    document.cookie = `redirect=${encodeURIComponent('//evil.example/x')}; path=/`;
    mockServer(true);
    renderAt('/');
    await waitFor(() => expect(path()).toBe('/mail/folder/all/11/1'));
    expect(readCookie('redirect')).toBeNull();
  });

  it('keeps alias-only users out of settings and contacts', async () => {
    mockServer(true, { access: { ...testUser, info: { alias: 'ann@alias.test' } } });
    renderAt('/settings/main');
    await waitFor(() => expect(path()).toBe('/mail/folder/all/11/1'));
  });

  it("posts 'finish' to the host page once loaded inside a frame", async () => {
    mockServer(true);
    const parent = { postMessage: vi.fn() };
    vi.spyOn(window, 'top', 'get').mockReturnValue({} as Window);
    vi.spyOn(window, 'parent', 'get').mockReturnValue(parent as unknown as Window);
    renderAt('/mail');
    await waitFor(() => expect(parent.postMessage).toHaveBeenCalledWith('finish', '*'));
    expect(parent.postMessage).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
  });

  it('unknown paths go to /mail', async () => {
    mockServer(true);
    renderAt('/no/such/page');
    await waitFor(() => expect(path()).toBe('/mail/folder/all/11/1'));
  });
});
