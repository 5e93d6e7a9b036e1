import { describe, expect, it } from 'vitest';
import { defaultSettings } from '@mailroom/protocol';
import { Browser, cleanup, createTestApp, signUpAndSignIn } from '../_util.js';
import { startMetricsListener } from '../../src/http/index.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import { apiRequest, apiPath, OPENAPI_PATH } from '../_client.js';

// New accounts here get the product's default hold (the other test files send at once).
const { app, db } = await createTestApp({ env: { UNDO_SEND_DEFAULT_SECONDS: '10' } });

describe('settings', () => {
  it('a new account starts with the default settings', async () => {
    const { browser } = await signUpAndSignIn(app);
    expect((await apiRequest(browser, 'settings')).json()).toEqual({ settings: defaultSettings });
  });

  it('changing one setting keeps the others', async () => {
    const { browser } = await signUpAndSignIn(app);
    const changed = await apiRequest(browser, 'changeSettings', {
      body: { unread_first: true, image_display: 'never' },
    });
    expect(changed.json().settings).toEqual({
      ...defaultSettings,
      unread_first: true,
      image_display: 'never',
    });
    expect((await apiRequest(browser, 'account')).json().settings.unread_first).toBe(true);
  });

  it('an unknown setting or a value out of range is refused and changes nothing', async () => {
    const { browser } = await signUpAndSignIn(app);
    for (const body of [{ colour: 'red' }, { per_page: 0 }, { signature_add: 'sometimes' }]) {
      const response = await apiRequest(browser, 'changeSettings', { body });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.meta.i8s).toBe('invalid_request_params');
    }
    expect((await apiRequest(browser, 'settings')).json().settings).toEqual(defaultSettings);
  });
});

describe('password sign-in to an address with password access', () => {
  it('the right password opens an alias-only session on that address', async () => {
    const { browser: owner, memberId } = await signUpAndSignIn(app, 'Owner');
    const account = await db
      .selectFrom('accounts')
      .select('id')
      .where('member_id', '=', memberId)
      .executeTakeFirstOrThrow();
    await db.insertInto('aliases').values({ account_id: account.id, email: 'desk@mailroom.test' }).execute();
    await grantPasswordAccess(db, account.id, 'desk@mailroom.test', 's3cret-pass');
    void owner;

    const browser = new Browser(app);
    const response = await apiRequest(browser, 'passwordSignIn', {
      body: { email: 'Desk@mailroom.test', password: 's3cret-pass' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toEqual({
      email: 'desk@mailroom.test',
      member_id: null,
      name: 'desk@mailroom.test',
      info: { alias: 'desk@mailroom.test' },
    });
    const view = (await apiRequest(browser, 'account')).json();
    expect(view.email).toBe('desk@mailroom.test');
    expect(view.profiles).toEqual([]);
    expect((await apiRequest(browser, 'rids')).json()).toEqual({ rid: null });
  });

  it('a wrong password and an unknown address get the same answer: the address or password is wrong', async () => {
    for (const body of [
      { email: 'desk@mailroom.test', password: 'wrong' },
      { email: 'nobody@mailroom.test', password: 'whatever' },
    ]) {
      const response = await apiRequest(new Browser(app), 'passwordSignIn', { body });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({
        error: {
          message: 'Incorrect address or password',
          meta: { code: 401, i8s: 'incorrect_login_or_password' },
        },
      });
    }
  });
});

describe('service endpoints', () => {
  it('/healthz answers ok after touching the database', async () => {
    const response = await new Browser(app).get('/healthz');
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('/metrics exposes Prometheus metrics including request durations', async () => {
    await new Browser(app).get('/healthz');
    const listener = await startMetricsListener({ host: '127.0.0.1', port: 0 });
    cleanup(() => listener.close());
    const scraped = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    const response = {
      headers: { 'content-type': scraped.headers.get('content-type') },
      body: await scraped.text(),
    };
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toContain('mailroom_http_request_duration_seconds_bucket');
    expect(response.body).toContain('process_cpu_user_seconds_total');
  });

  it('the OpenAPI document says what each route returns', async () => {
    const doc = (await new Browser(app).get(OPENAPI_PATH)).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths[apiPath('account')].get.responses['200']).toBeDefined();
  });
});
