import { describe, expect, it } from 'vitest';
import { Browser, createTestApp, signUpAndSignIn } from '../_util.js';
import { apiRequest, apiPath } from '../_client.js';

// The file signs in far more often than AUTH_RATE_LIMIT allows one address a minute (http.test.ts tests the limit).
const { app, db } = await createTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });

describe('single sign-on through the embedded identity provider', () => {
  it('a new member signs up, lands on the saved path and has a provisioned mailbox', async () => {
    const { browser, memberId, landedOn } = await signUpAndSignIn(app, 'Ann Lee', '/mail/folder/all/1/1');
    expect(landedOn.pathname).toBe('/mail/folder/all/1/1');
    expect(memberId).toMatch(/^\d{12}$/);

    const access = await apiRequest(browser, 'access');
    expect(access.statusCode).toBe(200);
    expect(access.json()).toEqual({
      email: `${memberId}@mailroom.test`,
      member_id: memberId,
      name: 'Ann Lee',
      info: { alias: null },
    });
    expect((await apiRequest(browser, 'rids')).json()).toEqual({ rid: memberId });

    const folders = (await apiRequest(browser, 'folders')).json().folders;
    expect(folders.map((f: { name: string; system: string }) => [f.name, f.system])).toEqual([
      ['INBOX', 'inbox'],
      ['INBOX.Sent', 'sent'],
      ['INBOX.Drafts', 'draft'],
      ['INBOX.Trash', 'trash'],
      ['INBOX.Junk', 'junk'],
      ['INBOX.Scheduled', 'scheduled'],
      ['INBOX.Snoozed', 'snoozed'],
    ]);

    const account = (await apiRequest(browser, 'account')).json();
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
    expect((await apiRequest(browser, 'user')).json()).toEqual([
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
    const foldersBefore = (await apiRequest(browser, 'folders')).json().folders;

    // The IdP remembers the member: a second login goes straight back through the callback.
    const { url } = await browser.follow(apiPath('signIn', { query: { redirect: '/settings/main' } }));
    expect(new URL(url).pathname).toBe('/settings/main');
    const secondSession = browser.cookies.get('mr_sid');
    expect(secondSession).toBeTruthy();
    expect(secondSession).not.toBe(firstSession);

    const stale = new Browser(app);
    stale.cookies.set('mr_sid', firstSession!);
    expect((await apiRequest(stale, 'access')).statusCode).toBe(401);
    expect((await apiRequest(browser, 'folders')).json().folders).toEqual(foldersBefore);
    const count = await db
      .selectFrom('accounts')
      .where('member_id', '=', memberId)
      .select(db.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(1);
  });

  it('session and sign-in cookies are HttpOnly and SameSite=Lax by default', async () => {
    const browser = new Browser(app);
    const response = await apiRequest(browser, 'signIn');
    const cookie = response.cookies.find((c) => c.name === 'mr_oidc')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
  });

  it('logging out ends the session', async () => {
    const { browser } = await signUpAndSignIn(app, 'Cy Dorn');
    const out = await apiRequest(browser, 'logOut');
    expect(out.json()).toEqual({ ok: true });
    expect((await apiRequest(browser, 'access')).statusCode).toBe(401);
    expect(browser.cookies.has('isLogged')).toBe(false);
  });

  it('a callback without the flow cookie is refused back to the login page', async () => {
    const browser = new Browser(app);
    const response = await apiRequest(browser, 'signInCallback', {
      query: { code: 'forged', state: 'forged' },
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login?noredirect=true&error=auth_error');
    expect(browser.cookies.has('mr_sid')).toBe(false);
  });

  it('a forged state is refused even with a valid flow cookie', async () => {
    const browser = new Browser(app);
    const { response: page, url } = await browser.follow(apiPath('signIn'));
    expect(page.statusCode).toBe(200);
    expect(url).toContain('/idp/interaction/');
    const response = await apiRequest(browser, 'signInCallback', {
      query: { code: 'abc', state: 'not-the-state' },
    });
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
    const response = await apiRequest(browser, 'signIn');
    const flow = decodeURIComponent(response.cookies.find((c) => c.name === 'mr_oidc')!.value);
    expect(flow).toContain('"redirect":"/mail"');
  });
});

/** The form of an HTML page (the provider's sign-out and form-post pages), as a browser would submit it. */
function formOf(body: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(body)?.[1];
  if (!action) throw new Error(`no form in ${body.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const input of body.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name) fields[name] = (value ?? '').replaceAll('&amp;', '&');
  }
  return { action: action.replaceAll('&amp;', '&'), fields };
}

/** Follows redirects, submitting the provider's auto-submitting forms as the browser's script would. */
async function walk(browser: Browser, url: string) {
  let current = await browser.follow(url);
  for (let i = 0; i < 5; i++) {
    const { response, url: at } = current;
    if (response.statusCode !== 200 || !/<form[^>]*method="post"/.test(response.body)) return current;
    if (response.body.includes('name="memberId"')) return current;
    const { action, fields } = formOf(response.body);
    const posted = await browser.request('POST', new URL(action, at).href, { form: fields, csrf: false });
    const location = posted.headers.location;
    if (!location) return { response: posted, url: action };
    current = await browser.follow(new URL(String(location), new URL(action, at)).href);
  }
  return current;
}

describe('signing out and switching accounts', () => {
  it('logging out ends the embedded provider session too: signing in again asks for the password', async () => {
    const { browser } = await signUpAndSignIn(app, 'Lou Out');
    const { url } = await walk(browser, apiPath('logOutLink'));
    expect(new URL(url).pathname + new URL(url).search).toBe('/login?noredirect=true');
    expect((await apiRequest(browser, 'access')).statusCode).toBe(401);
    const again = await browser.follow(apiPath('signIn'));
    expect(again.url).toContain('/idp/interaction/');
    expect(again.response.body).toContain('name="password"');
  });

  it("signing out through the API ends the embedded provider's session too: Sign in asks for the password", async () => {
    const { browser } = await signUpAndSignIn(app, 'Api Out');
    expect((await apiRequest(browser, 'logOut')).statusCode).toBe(200);
    expect((await apiRequest(browser, 'access')).statusCode).toBe(401);
    // Sign in in the same browser, no prompt asked for: the provider must not let the next person straight in.
    const again = await browser.follow(apiPath('signIn', { query: { redirect: '/mail' } }));
    expect(again.url).toContain('/idp/interaction/');
    expect(again.response.body).toContain('name="password"');
    expect(browser.cookies.has('mr_sid')).toBe(false);
  });

  it("a forged provider session cookie at sign-out ends nobody else's provider session", async () => {
    const { browser: victim } = await signUpAndSignIn(app, 'Vic Tim');
    const { browser: other } = await signUpAndSignIn(app, 'Mal Lory');
    other.cookies.set('_session', victim.cookies.get('_session')!);
    expect((await apiRequest(other, 'logOut')).statusCode).toBe(200);
    victim.cookies.delete('mr_sid');
    // The victim's browser still signs in without a password (their provider session is untouched).
    const { url } = await victim.follow(apiPath('signIn', { query: { redirect: '/mail' } }));
    expect(new URL(url, 'http://mailroom.localhost').pathname).toBe('/mail');
  });

  it('logging in with another member ID ends this session and signs the other member in', async () => {
    const other = await signUpAndSignIn(app, 'Second Member');
    const { browser, memberId } = await signUpAndSignIn(app, 'First Member');
    expect((await apiRequest(browser, 'logOut')).statusCode).toBe(200);
    const form = await browser.follow(apiPath('signIn', { query: { prompt: 'login', redirect: '/mail' } }));
    expect(form.response.body).toContain('name="memberId"');
    const uid = new URL(form.url).pathname.split('/')[3]!;
    const posted = await browser.request('POST', `/idp/interaction/${uid}/login`, {
      form: { memberId: other.memberId, password: 'correct horse' },
      csrf: false,
    });
    expect(posted.statusCode).toBe(303);
    const { url } = await walk(browser, String(posted.headers.location));
    expect(new URL(url).pathname).toBe('/mail');
    const access = (await apiRequest(browser, 'access')).json();
    expect(access.member_id).toBe(other.memberId);
    expect(access.member_id).not.toBe(memberId);
  });
});

describe("the member's saved language at sign-in", () => {
  /** Signs `memberId` in at the embedded provider's form in `browser`; answers where it landed. */
  async function signInAt(browser: Browser, memberId: string) {
    const form = await browser.follow(apiPath('signIn', { query: { redirect: '/mail' } }));
    const uid = new URL(form.url).pathname.split('/')[3]!;
    const posted = await browser.request('POST', `/idp/interaction/${uid}/login`, {
      form: { memberId, password: 'correct horse' },
      csrf: false,
    });
    return new URL((await walk(browser, String(posted.headers.location))).url).pathname;
  }

  it('wins over the lang cookie of another browser, which then keeps it', async () => {
    const { browser: first, memberId } = await signUpAndSignIn(app, 'Lena Lang');
    expect((await apiRequest(first, 'changeSettings', { body: { language: 'ru' } })).statusCode).toBe(200);
    const second = new Browser(app);
    second.cookies.set('lang', 'en');
    expect(await signInAt(second, memberId)).toBe('/mail');
    expect(second.cookies.get('lang')).toBe('ru');
  });

  it('leaves the cookie alone when the member saved none', async () => {
    const { memberId } = await signUpAndSignIn(app, 'Nils None');
    const second = new Browser(app);
    second.cookies.set('lang', 'en');
    expect(await signInAt(second, memberId)).toBe('/mail');
    expect(second.cookies.get('lang')).toBe('en');
  });
});

describe('odd return paths on the sign-in redirect never answer 500', () => {
  const odd = [
    '/mail/\u00e9t\u00e9',
    '/mail/%',
    '/mail/%E0%A4%A',
    '/mail/\u0000x',
    '/mail/\r\nset-cookie: a=b',
    '/mail/\u2028x',
    '/mail?q=%zz',
  ];
  for (const redirect of odd) {
    it(`${JSON.stringify(redirect)} lands on a safe path`, async () => {
      const browser = new Browser(app);
      const start = await apiRequest(browser, 'signIn', { query: { redirect } });
      expect(start.statusCode).toBeLessThan(500);
      expect(start.statusCode === 302 || start.statusCode === 400).toBe(true);
      if (start.statusCode === 400) {
        expect(start.json().error.meta.i8s).toBeTruthy();
        return;
      }
      const { landedOn } = await signUpAndSignIn(app, 'Odd Path', redirect);
      expect(landedOn.origin).toBe('http://mailroom.localhost');
      expect(landedOn.pathname.startsWith('/mail')).toBe(true);
    });
  }

  for (const query of [
    `redirect=${'/mail/x'.repeat(400)}`,
    'redirect=/a&redirect=/b',
    'redirect[]=/a',
    'prompt=consent',
    'prompt=login&prompt=none',
  ]) {
    it(`a sign-in start with ${query.slice(0, 40)} is a 302 or a catalogue 400`, async () => {
      // The query as a hostile client writes it (repeated or bracketed keys): raw, after the table's path.
      const start = await new Browser(app).get(`${apiPath('signIn')}?${query}`);
      if (start.statusCode !== 302) {
        expect(start.statusCode).toBe(400);
        expect(start.json().error.meta.i8s).toBe('invalid_request_params');
      }
    });
  }

  for (const query of [
    'code=a&code=b&state=c',
    'error=access_denied&state=x',
    'state[a]=1',
    'iss=%ZZ&code=1',
  ]) {
    it(`a callback with ${query} goes back to the login page`, async () => {
      const browser = new Browser(app);
      await browser.follow(apiPath('signIn'));
      const response = await browser.get(`${apiPath('signInCallback')}?${query}`);
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toMatch(/^\/login\?noredirect=true&error=/);
    });
  }

  it('a lone surrogate in the return path falls back to /mail', async () => {
    const browser = new Browser(app);
    const start = await apiRequest(browser, 'signIn', { query: { redirect: '/mail/%ED%A0%80' } });
    expect(start.statusCode).toBeLessThan(500);
  });

  for (const cookie of ['%E0%A4%A', '/mail/%ED%A0%80', '/mail/%0D%0Ax:%20y', '/mail/%C3%A9']) {
    it(`a redirect cookie of ${JSON.stringify(cookie)} starts sign-in and lands on a safe path`, async () => {
      const browser = new Browser(app);
      browser.cookies.set('redirect', cookie);
      const start = await apiRequest(browser, 'signIn');
      expect(start.statusCode).toBe(302);
      const flow = decodeURIComponent(start.cookies.find((c) => c.name === 'mr_oidc')!.value);
      const saved = JSON.parse(flow.slice(flow.indexOf('{'), flow.lastIndexOf('}') + 1)).redirect;
      expect(() => new URL(saved, 'http://x').href).not.toThrow();
      expect(saved.startsWith('/mail')).toBe(true);
      expect(/[^\x21-\x7e]/.test(saved)).toBe(false);
    });
  }
});

describe('the embedded provider speaks the app language', () => {
  it('its sign-in page follows the lang cookie, lang, the ui_locales of the sign-in and the browser', async () => {
    const byCookie = new Browser(app);
    byCookie.cookies.set('lang', 'ru');
    const ru = await byCookie.follow(apiPath('signIn'));
    expect(ru.response.body).toContain('<html lang="ru">');
    expect(ru.response.body).toContain('Пароль');
    expect(ru.response.body).not.toContain('>Password<');

    // lang overrides the cookie, on the app's sign-in link (ui_locales) and on the page itself.
    const byLink = await byCookie.follow(apiPath('signIn', { query: { lang: 'en' } }));
    expect(byLink.response.body).toContain('<html lang="en">');
    const page = await byCookie.get(`${new URL(ru.url).pathname}?lang=en`);
    expect(page.body).toContain('>Password<');

    const byBrowser = new Browser(app);
    const start = await apiRequest(byBrowser, 'signIn');
    const interaction = await byBrowser.follow(String(start.headers.location));
    expect(interaction.response.body).toContain('<html lang="en">');
    const russianBrowser = await byBrowser.get(new URL(interaction.url).pathname, {
      'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5',
    });
    expect(russianBrowser.body).toContain('<html lang="ru">');
  });

  it('its sign-up, wrong-password and expired-link answers are Russian too, and sign-up offers to copy the member ID', async () => {
    const browser = new Browser(app);
    browser.cookies.set('lang', 'ru');
    const { url } = await browser.follow(apiPath('signIn'));
    const uid = new URL(url).pathname.split('/')[3]!;
    const signUp = await browser.get(`/idp/interaction/${uid}/signup`);
    expect(signUp.body).toContain('Зарегистрироваться');
    const wrong = await browser.request('POST', `/idp/interaction/${uid}/login`, {
      form: { memberId: '123456789012', password: 'nope' },
      csrf: false,
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('Неверный ID участника или пароль');
    const short = await browser.request('POST', `/idp/interaction/${uid}/signup`, {
      form: { name: 'Ива', password: '123' },
      csrf: false,
    });
    expect(short.body).toContain('не короче 6 символов');
    const done = await browser.request('POST', `/idp/interaction/${uid}/signup`, {
      form: { name: 'Ива', password: 'correct horse' },
      csrf: false,
    });
    expect(done.body).toContain('Скопировать ID участника');
    expect(done.body).toMatch(/data-copy="\d{12}"/);
    const script = await browser.get('/idp/idp.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    const stranger = new Browser(app);
    stranger.cookies.set('lang', 'ru');
    const expired = await stranger.get('/idp/interaction/no-such-uid');
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain('Ссылка для входа устарела');
  });
});

describe('sign-in inside a cross-site frame (FRAME_ANCESTORS set)', async () => {
  const framed = await createTestApp({ env: { FRAME_ANCESTORS: 'http://127.0.0.2:9000' } });

  it("every cookie of the flow, the embedded provider's included, is SameSite=None; Secure; Partitioned", async () => {
    const browser = new Browser(framed.app);
    const seen: { name: string; sameSite?: string; secure?: boolean; partitioned?: boolean }[] = [];
    const headers: string[] = [];
    let response = await apiRequest(browser, 'signIn');
    for (let i = 0; i < 10; i++) {
      seen.push(...(response.cookies as typeof seen));
      headers.push(...([response.headers['set-cookie'] ?? []].flat() as string[]));
      const location = response.headers.location;
      if (!location) break;
      response = await browser.get(String(location));
    }
    const names = seen.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['mr_oidc', '_interaction', '_interaction_resume']));
    for (const header of headers) {
      expect(header).toMatch(/samesite=none/i);
      expect(header).toMatch(/;\s*secure/i);
      expect(header).toMatch(/;\s*partitioned/i);
    }
  });

  it('a member signs up and lands in the app, and logging out ends the provider session too', async () => {
    const { browser, landedOn } = await signUpAndSignIn(framed.app, 'Fay Frame');
    expect(landedOn.pathname).toBe('/mail');
    expect((await apiRequest(browser, 'access')).statusCode).toBe(200);
    const { url } = await walk(browser, apiPath('logOutLink'));
    expect(new URL(url).pathname).toBe('/login');
    expect((await browser.follow(apiPath('signIn'))).response.body).toContain('name="password"');
  });
});

describe('the app opened on another host than PUBLIC_URL', () => {
  it('an app page or the sign-in start on another host is sent to PUBLIC_URL before any sign-in starts', async () => {
    const other = new Browser(app, 'http://127.0.0.1:8080');
    const page = await other.get('/mail/folder/all/1/2/289', { accept: 'text/html' });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('http://mailroom.localhost/mail/folder/all/1/2/289');

    const signIn = apiPath('signIn', { query: { redirect: '/settings/main' } });
    const start = await new Browser(app, 'http://127.0.0.1:8080').get(signIn);
    expect(start.statusCode).toBe(302);
    // The same address on PUBLIC_URL, as it was asked for.
    expect(start.headers.location).toBe(`http://mailroom.localhost${signIn}`);
    expect(start.cookies.some((c) => c.name === 'mr_oidc')).toBe(false);

    // The API and the provider are left alone: they answer where they are asked.
    expect((await apiRequest(other, 'access')).statusCode).toBe(401);
    expect((await new Browser(app, 'http://127.0.0.1:8080').get('/healthz')).statusCode).toBe(200);
  });

  it('a proxy that rewrites the Host header gets one redirect, then the page, never a loop', async () => {
    const proxied = new Browser(app, 'http://backend:8080');
    expect((await apiRequest(proxied, 'signIn')).statusCode).toBe(302);
    const again = await apiRequest(proxied, 'signIn');
    expect(again.statusCode).toBe(302);
    expect(String(again.headers.location)).toContain('/oidc/auth');
  });
});

describe("the embedded provider's sign-out question", () => {
  it('asks in the language of the cookie when the request does not come with the session ID token', async () => {
    const { browser } = await signUpAndSignIn(app, 'Ru Out');
    browser.cookies.set('lang', 'ru');
    const question = await browser.get('/oidc/session/end?client_id=mailroom');
    expect(question.statusCode).toBe(200);
    expect(question.body).toContain('Выйти из Mailroom?');
    expect(question.body).toContain('name="logout" value="yes"');
    expect(question.body).not.toContain('data-autosubmit');
  });
});
