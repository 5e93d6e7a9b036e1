import { describe, expect, it } from 'vitest';
import { Browser, createTestApp, signUpAndSignIn } from './_util.js';

const { app, db } = await createTestApp();

describe('single sign-on through the embedded identity provider', () => {
  it('a new member signs up, lands on the saved path and has a provisioned mailbox', async () => {
    const { browser, memberId, landedOn } = await signUpAndSignIn(app, 'Ann Lee', '/mail/folder/all/1/1');
    expect(landedOn.pathname).toBe('/mail/folder/all/1/1');
    expect(memberId).toMatch(/^\d{12}$/);

    const access = await browser.get('/auth/access');
    expect(access.statusCode).toBe(200);
    expect(access.json()).toEqual({
      email: `${memberId}@mailroom.test`,
      member_id: memberId,
      name: 'Ann Lee',
      info: { alias: null },
    });
    expect((await browser.get('/auth/rids')).json()).toEqual({ rid: memberId });

    const folders = (await browser.get('/api/v1/folders')).json().folders;
    expect(folders.map((f: { name: string; system: string }) => [f.name, f.system])).toEqual([
      ['INBOX', 'inbox'],
      ['INBOX.Sent', 'sent'],
      ['INBOX.Drafts', 'draft'],
      ['INBOX.Trash', 'trash'],
      ['INBOX.Junk', 'junk'],
    ]);

    const account = (await browser.get('/api/v1/user/account')).json();
    expect(account.email).toBe(`${memberId}@mailroom.test`);
    expect(account.quota).toEqual({ size: 0, limit: 1024 * 1024 });
    expect(account.profiles).toEqual([
      {
        id: expect.any(Number),
        name: 'Ann Lee',
        email: `${memberId}@mailroom.test`,
        signature: '',
        default: true,
      },
    ]);
    expect(account.settings.per_page).toBe(30);
    expect((await browser.get('/api/v1/user')).json()).toEqual([
      {
        user_info: {
          email: `${memberId}@mailroom.test`,
          member_id: memberId,
          name: 'Ann Lee',
          info: { alias: null },
        },
      },
    ]);
  });

  it('signing in again issues a new session id and keeps the same mailbox', async () => {
    const { browser, memberId } = await signUpAndSignIn(app, 'Bo Chen');
    const firstSession = browser.cookies.get('mr_sid');
    const foldersBefore = (await browser.get('/api/v1/folders')).json().folders;

    // The IdP remembers the member: a second login goes straight back through the callback.
    const { url } = await browser.follow('/auth/wm/login?redirect=/settings/main');
    expect(new URL(url).pathname).toBe('/settings/main');
    const secondSession = browser.cookies.get('mr_sid');
    expect(secondSession).toBeTruthy();
    expect(secondSession).not.toBe(firstSession);

    const stale = new Browser(app);
    stale.cookies.set('mr_sid', firstSession!);
    expect((await stale.get('/auth/access')).statusCode).toBe(401);
    expect((await browser.get('/api/v1/folders')).json().folders).toEqual(foldersBefore);
    const count = await db
      .selectFrom('accounts')
      .where('member_id', '=', memberId)
      .select(db.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(1);
  });

  it('session and sign-in cookies are HttpOnly and SameSite=Lax by default', async () => {
    const browser = new Browser(app);
    const response = await browser.get('/auth/wm/login');
    const cookie = response.cookies.find((c) => c.name === 'mr_oidc')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
  });

  it('logging out ends the session', async () => {
    const { browser } = await signUpAndSignIn(app, 'Cy Dorn');
    const out = await browser.request('POST', '/auth/wm/logout');
    expect(out.json()).toEqual({ ok: true });
    expect((await browser.get('/auth/access')).statusCode).toBe(401);
    expect(browser.cookies.has('isLogged')).toBe(false);
  });

  it('a callback without the flow cookie is refused back to the login page', async () => {
    const browser = new Browser(app);
    const response = await browser.get('/auth/wm/callback?code=forged&state=forged');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?noredirect=true&error=auth_error');
    expect(browser.cookies.has('mr_sid')).toBe(false);
  });

  it('a forged state is refused even with a valid flow cookie', async () => {
    const browser = new Browser(app);
    const { response: page, url } = await browser.follow('/auth/wm/login');
    expect(page.statusCode).toBe(200);
    expect(url).toContain('/idp/interaction/');
    const response = await browser.get('/auth/wm/callback?code=abc&state=not-the-state');
    expect(response.headers.location).toBe('/login?noredirect=true&error=auth_error');
    expect(browser.cookies.has('mr_sid')).toBe(false);
  });
});

describe('the saved return path is accepted only as a same-origin relative path', () => {
  const hostile = [
    '//evil.example',
    '/\\evil.example',
    'https:evil.example',
    'https://evil.example/mail',
    '/%2F%2Fevil.example',
    '%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%252F%252Fevil.example',
    'javascript:alert(1)',
    '/\tevil',
    // Look-alike slashes and dots outside ASCII (a Location header cannot carry them either).
    '/\u3002evil.example',
    '/\u2215\u2215evil.example',
    '/\uff0f\uff0fevil.example',
  ];
  for (const redirect of hostile) {
    it(`${JSON.stringify(redirect)} falls back to /mail`, async () => {
      const { landedOn } = await signUpAndSignIn(app, 'Eve Tester', redirect);
      expect(landedOn.origin).toBe('http://mailroom.localhost');
      expect(landedOn.pathname).toBe('/mail');
    });
  }

  it('a hostile redirect cookie falls back to /mail too', async () => {
    const browser = new Browser(app);
    browser.cookies.set('redirect', encodeURIComponent('//evil.example'));
    const response = await browser.get('/auth/wm/login');
    const flow = decodeURIComponent(response.cookies.find((c) => c.name === 'mr_oidc')!.value);
    expect(flow).toContain('"redirect":"/mail"');
  });
});
