import { beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type MailEvent } from '@mailroom/protocol';
import { grantPasswordAccess } from '../../src/addresses/index.js';
import { Browser, createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { LiveClient, listenWs } from '../_ws.js';
import { api, apiRequest } from '../_client.js';

// New accounts here get the product's default hold (the other test files send at once).
const ctx = await createTestApp({ env: { UNDO_SEND_DEFAULT_SECONDS: '10' } });
const wsUrl = await listenWs(ctx.app);
let ann: MailUser;

beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Settings');
});

/** A session signed in by password access to one address of the account (SPEC §6 alias-only). */
async function passwordSession(user: MailUser): Promise<Browser> {
  const alias = await ctx.db
    .insertInto('aliases')
    .values({ account_id: user.accountId, email: `desk-${user.accountId}@mailroom.test` })
    .returning('email')
    .executeTakeFirstOrThrow();
  await grantPasswordAccess(ctx.db, user.accountId, alias.email, 'desk-password');
  const desk = new Browser(ctx.app);
  const login = await apiRequest(desk, 'passwordSignIn', {
    body: { email: alias.email, password: 'desk-password' },
  });
  expect(login.statusCode).toBe(200);
  return desk;
}

describe('settings: read and saved', () => {
  it('a new account has the default settings, the new ones included', async () => {
    const bob = await mailUser(ctx, 'Bob Settings');
    const { status, body } = await api(bob.browser, 'settings');
    expect(status).toBe(200);
    expect(body.settings).toEqual(defaultSettings);
    expect(body.settings).toMatchObject({ language: null, notify_minutes: 15, theme: 'system' });
  });

  it('an account saved before language, notify_minutes and theme existed reads them as their defaults', async () => {
    const old = await mailUser(ctx, 'Old Settings');
    const { language, notify_minutes, theme, ...before } = { ...defaultSettings, per_page: 50 };
    void language;
    void notify_minutes;
    void theme;
    await ctx.db
      .updateTable('accounts')
      .set({ settings: JSON.stringify(before) })
      .where('id', '=', old.accountId)
      .execute();
    const expected = { ...defaultSettings, per_page: 50 };
    expect((await api(old.browser, 'settings')).body.settings).toEqual(expected);
    expect((await api(old.browser, 'account')).body.settings).toEqual(expected);
    // A partial save keeps the old keys and adds the new one; the others still read as defaults.
    const saved = await api(old.browser, 'changeSettings', { body: { theme: 'dark' } });
    expect(saved.body.settings).toEqual({ ...expected, theme: 'dark' });
  });

  it('a save changes only the settings given and the account shows them at once', async () => {
    const saved = await api(ann.browser, 'changeSettings', {
      body: {
        per_page: 50,
        message_thread: true,
        image_display: 'never',
        signature_add: 'new_message',
        notify_minutes: 0,
        theme: 'dark',
      },
    });
    expect(saved.status).toBe(200);
    const expected = {
      ...defaultSettings,
      per_page: 50,
      message_thread: true,
      image_display: 'never',
      signature_add: 'new_message',
      notify_minutes: 0,
      theme: 'dark',
    };
    expect(saved.body.settings).toEqual(expected);
    expect((await api(ann.browser, 'settings')).body.settings).toEqual(expected);
    expect((await api(ann.browser, 'account')).body.settings).toEqual(expected);
    const second = await api(ann.browser, 'changeSettings', { body: { unread_first: true } });
    expect(second.body.settings).toEqual({ ...expected, unread_first: true });
  });

  it('two saves at the same time each keep what the other changed', async () => {
    const cat = await mailUser(ctx, 'Cat Settings');
    await Promise.all([
      api(cat.browser, 'changeSettings', { body: { per_page: 100 } }),
      api(cat.browser, 'changeSettings', { body: { slim_template: true } }),
      api(cat.browser, 'changeSettings', { body: { message_preview: false } }),
    ]);
    expect((await api(cat.browser, 'settings')).body.settings).toMatchObject({
      per_page: 100,
      slim_template: true,
      message_preview: false,
    });
  });

  it('saving a language sets the lang cookie the web app reads; saving null clears it', async () => {
    const dan = await mailUser(ctx, 'Dan Settings');
    const ru = await apiRequest(dan.browser, 'changeSettings', { body: { language: 'ru' } });
    expect(ru.statusCode).toBe(200);
    const cookie = ru.cookies.find((c) => c.name === 'lang');
    expect(cookie).toMatchObject({ value: 'ru', path: '/' });
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.maxAge).toBeGreaterThan(300 * 24 * 3600);
    expect(dan.browser.cookies.get('lang')).toBe('ru');
    const none = await apiRequest(dan.browser, 'changeSettings', { body: { language: null } });
    expect(none.json().settings.language).toBeNull();
    expect(dan.browser.cookies.has('lang')).toBe(false);
    // A save without language leaves the cookie alone.
    const other = await apiRequest(dan.browser, 'changeSettings', { body: { per_page: 40 } });
    expect(other.cookies.find((c) => c.name === 'lang')).toBeUndefined();
  });

  it.each([
    [{ per_page: 4 }],
    [{ per_page: 201 }],
    [{ per_page: '30' }],
    [{ notify_minutes: -1 }],
    [{ notify_minutes: 1441 }],
    [{ notify_minutes: 1.5 }],
    [{ theme: 'blue' }],
    [{ language: 'de' }],
    [{ image_display: 'sometimes' }],
    [{ signature_add: 'never' }],
    [{ unread_first: 'yes' }],
    [{ colour: 'red' }],
    [[]],
  ])('a bad body %j is refused with invalid_request_params and nothing changes', async (body) => {
    const before = (await api(ann.browser, 'settings')).body.settings;
    const { status, body: answer } = await api(ann.browser, 'changeSettings', { body: body });
    expect(status).toBe(400);
    expect(answer.error.meta.i8s).toBe('invalid_request_params');
    expect((await api(ann.browser, 'settings')).body.settings).toEqual(before);
  });

  it('the settings are the owner’s alone: a password-access session may neither read nor save them', async () => {
    const eve = await mailUser(ctx, 'Eve Settings');
    const desk = await passwordSession(eve);
    const read = await api(desk, 'settings');
    expect(read.status).toBe(403);
    expect(read.body.error.meta.i8s).toBe('forbidden');
    const saved = await api(desk, 'changeSettings', { body: { per_page: 5 } });
    expect(saved.status).toBe(403);
    expect(saved.body.error.meta.i8s).toBe('forbidden');
    expect((await api(eve.browser, 'settings')).body.settings.per_page).toBe(defaultSettings.per_page);
  });

  it('signed out, the settings answer 401', async () => {
    const stranger = new Browser(ctx.app);
    expect((await api(stranger, 'settings')).status).toBe(401);
    expect((await api(stranger, 'changeSettings', { body: { per_page: 5 } })).status).toBe(401);
  });
});

describe('settings: the owner’s other tabs are told', () => {
  it('a save reaches a second socket of the owner as updateAccount settings, never a password-access one', async () => {
    const fay = await mailUser(ctx, 'Fay Settings');
    const desk = await passwordSession(fay);
    const other = await LiveClient.open(wsUrl, { token: fay.browser.cookies.get('mr_sid') });
    await other.greet();
    const deskSocket = await LiveClient.open(wsUrl, { token: desk.cookies.get('mr_sid') });
    await deskSocket.greet();
    const from = other.frames.length;
    await api(fay.browser, 'changeSettings', { body: { message_thread: true } });
    const [event] = await other.events(from, 1);
    expect(event).toEqual({ event: 'updateAccount', part: 'settings' } satisfies MailEvent);
    // A folder made afterwards reaches the password-access socket; the settings event before it never did.
    const deskFrom = deskSocket.frames.length;
    await api(fay.browser, 'createFolder', { body: { folder: { parent_id: null, name: 'After' } } });
    expect(await deskSocket.events(deskFrom, 1)).toEqual([{ event: 'updateMailboxList' }]);
    expect(deskSocket.received().some((e) => e.event === 'updateAccount')).toBe(false);
  });
});
