import { describe, expect, it } from 'vitest';
import type { AliasEntry, MailEvent } from '@mailroom/protocol';
import { Browser, createTestApp, signUpAndSignIn } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { createAccount } from '../_mail.js';
import { rawSession, smtpTransport, startTestIngest } from '../_smtp.js';
import { LiveClient, listenWs } from '../_ws.js';
import { setPassportLevel } from '../../src/accounts/index.js';
import { changeAliasAccess } from '../../src/user/aliases.service.js';
import { api, apiRequest, apiPath, apiCall, type RouteCall } from '../_client.js';

const ctx = await createTestApp();
const { app, db } = ctx;
const wsUrl = await listenWs(app);
const ingest = await startTestIngest({ db });

let seq = 0;
/** A name no other test of the file uses. */
const fresh = (stem = 'desk') => `${stem}${Date.now().toString(36)}${seq++}`;

async function createFree(user: MailUser, name = fresh()) {
  const r = await api(user.browser, 'createAlias', { body: { name } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.alias as AliasEntry;
}

async function rcpt(address: string) {
  const replies = await rawSession(ingest.port, [
    'EHLO client.example.org\r\n',
    'MAIL FROM:<a@example.org>\r\n',
    `RCPT TO:<${address}>\r\n`,
  ]);
  return replies[3]!;
}

describe('the free alias', () => {
  it('is created active, lowercased on the service domain, and listed with free_available false', async () => {
    const ann = await mailUser(ctx, 'Ann Free');
    const before = await api(ann.browser, 'aliases');
    expect(before.body).toEqual({ aliases: [], free_available: true, domain: 'mailroom.test' });
    const name = fresh('Ann.Lee');
    const alias = await createFree(ann, `  ${name} `);
    expect(alias).toMatchObject({
      email: `${name.toLowerCase()}@mailroom.test`,
      kind: 'free',
      status: 'succeed',
      password_access: false,
    });
    const after = await api(ann.browser, 'aliases');
    expect(after.body.aliases).toEqual([alias]);
    expect(after.body.free_available).toBe(false);
    const account = await api(ann.browser, 'account');
    expect(account.body.aliases).toEqual([{ id: alias.id, email: alias.email }]);
  });

  it('a second free alias is refused with max_count_aliases', async () => {
    const bob = await mailUser(ctx, 'Bob Two');
    await createFree(bob);
    const second = await api(bob.browser, 'createAlias', { body: { name: fresh() } });
    expect(second.status).toBe(400);
    expect(second.code).toBe('max_count_aliases');
  });

  it('two free aliases asked for at once give one alias and one max_count_aliases', async () => {
    const cy = await mailUser(ctx, 'Cy Race');
    const results = await Promise.all(
      [fresh(), fresh()].map((name) => api(cy.browser, 'createAlias', { body: { name } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.map((r) => r.code).filter(Boolean)).toEqual(['max_count_aliases']);
    expect((await api(cy.browser, 'aliases')).body.aliases).toHaveLength(1);
  });
});

describe('the alias rules, in order, each with its code', () => {
  it('refuses bad names with their SPEC codes', async () => {
    const dee = await mailUser(ctx, 'Dee Rules');
    const cases: [string, string][] = [
      ['ab', 'specify_3_30'],
      ['a'.repeat(31), 'specify_3_30'],
      ['123456789012', 'invalid_alias_member_id'],
      ['Z123456789012', 'invalid_alias_purse'],
      ['postmaster', 'alias_stoplist'],
      ['Mail.Room', 'alias_stoplist'],
      ['john doe', 'invalid_alias'],
      ['ann@other.example', 'invalid_alias'],
    ];
    for (const [name, code] of cases) {
      const r = await api(dee.browser, 'createAlias', { body: { name } });
      expect(r.status, name).toBe(400);
      expect(r.code, name).toBe(code);
    }
    expect((await api(dee.browser, 'aliases')).body.aliases).toEqual([]);
  });

  it('a name taken by another account, in any case, is duplicate_aliases', async () => {
    const eve = await mailUser(ctx, 'Eve First');
    const fay = await mailUser(ctx, 'Fay Second');
    const name = fresh('shop');
    await createFree(eve, name);
    const taken = await api(fay.browser, 'createAlias', { body: { name: name.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(taken.code).toBe('duplicate_aliases');
  });

  it('two accounts asking for one name at once: one gets it, the other duplicate_aliases', async () => {
    const one = await mailUser(ctx, 'One Racer');
    const two = await mailUser(ctx, 'Two Racer');
    const name = fresh('race');
    const results = await Promise.all(
      [one, two].map((u) => api(u.browser, 'createAlias', { body: { name } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.map((r) => r.code).filter(Boolean)).toEqual(['duplicate_aliases']);
  });

  it('without a passport of at least formal level: passport_level_required, checked after the name', async () => {
    const gus = await mailUser(ctx, 'Gus Nopass');
    await setPassportLevel(db, gus.accountId, 'none');
    const r = await api(gus.browser, 'createAlias', { body: { name: fresh() } });
    expect(r.status).toBe(403);
    expect(r.code).toBe('passport_level_required');
    // A bad name is told first: the name rules come before the passport.
    expect((await api(gus.browser, 'createAlias', { body: { name: 'ab' } })).code).toBe('specify_3_30');
    await setPassportLevel(db, gus.accountId, 'verified');
    await createFree(gus);
  });

  it('bad bodies are 400 with a catalogue code, never 500', async () => {
    const hal = await mailUser(ctx, 'Hal Bodies');
    const bodies: unknown[] = [{}, { name: '' }, { name: '   ' }, { name: 42 }, { name: 'x'.repeat(65) }, []];
    for (const body of bodies) {
      const r = await api(hal.browser, 'createAlias', { body: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.code, JSON.stringify(body)).toMatch(/^[a-z_0-9]+$/);
    }
    const access: unknown[] = [
      {},
      { email: 'x@mailroom.test' },
      { email: 'x@mailroom.test', password: 'short', password_confirm: 'short' },
      { email: 'x@mailroom.test', password: 'long enough', password_confirm: 7 },
      { email: 5, password: null },
    ];
    for (const body of access) {
      const r = await api(hal.browser, 'updateAliasAccess', { body: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.code, JSON.stringify(body)).toMatch(/^[a-z_0-9]+$/);
    }
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
      const r = await api(hal.browser, 'deleteAlias', { params: { id } });
      expect(r.status, id).toBe(400);
      expect(r.code, id).toMatch(/^[a-z_0-9]+$/);
    }
  });
});

describe('mail to aliases', () => {
  it('an active alias receives mail over SMTP, into the account, marked as mail to the alias', async () => {
    const ivy = await mailUser(ctx, 'Ivy Mail');
    const alias = await createFree(ivy);
    await smtpTransport(ingest.port).sendMail({
      from: 'a@example.org',
      to: alias.email.toUpperCase(),
      subject: 'to the alias',
      text: 'hello',
    });
    const rows = await db
      .selectFrom('messages')
      .select(['subject', 'alias_id'])
      .where('account_id', '=', ivy.accountId)
      .execute();
    expect(rows).toEqual([{ subject: 'to the alias', alias_id: alias.id }]);
  });

  it('a deleted alias refuses mail at RCPT with 550, and the mail it had stays', async () => {
    const jay = await mailUser(ctx, 'Jay Delete');
    const alias = await createFree(jay);
    await smtpTransport(ingest.port).sendMail({
      from: 'a@example.org',
      to: alias.email,
      subject: 'kept',
      text: 'x',
    });
    expect((await rcpt(alias.email)).code).toBe(250);
    const deleted = await api(jay.browser, 'deleteAlias', { params: { id: alias.id } });
    expect(deleted).toEqual({ status: 200, body: { ok: true } });
    const refused = await rcpt(alias.email);
    expect(refused.code).toBe(550);
    expect(refused.text).toMatch(/^5\.1\.1 /);
    const list = await api(jay.browser, 'folderMessages', {
      params: { folder_id: jay.folders.inbox },
      query: { page: 1 },
    });
    expect(list.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['kept']);
    expect((await api(jay.browser, 'aliases')).body).toMatchObject({
      aliases: [],
      free_available: true,
    });
    expect((await api(jay.browser, 'account')).body.aliases).toEqual([]);
    // A second delete finds nothing.
    expect((await api(jay.browser, 'deleteAlias', { params: { id: alias.id } })).code).toBe(
      'alias_not_found',
    );
  });

  it("a deleted alias's mail never shows to a session held to the primary address", async () => {
    const kim = await mailUser(ctx, 'Kim Primary');
    const alias = await createFree(kim);
    await smtpTransport(ingest.port).sendMail({
      from: 'a@example.org',
      to: alias.email,
      subject: 'aliased',
      text: 'x',
    });
    await api(kim.browser, 'deleteAlias', { params: { id: alias.id } });
    const list = await api(kim.browser, 'folderMessages', {
      params: { folder_id: kim.folders.inbox },
      query: { page: 1, a_id: '0' },
    });
    expect(list.status).toBe(200);
    expect(list.body.messages).toEqual([]);
  });

  it('a deleted name may be taken again, by anyone', async () => {
    const lou = await mailUser(ctx, 'Lou Again');
    const max = await mailUser(ctx, 'Max Again');
    const name = fresh('again');
    const first = await createFree(lou, name);
    await api(lou.browser, 'deleteAlias', { params: { id: first.id } });
    const second = await createFree(max, name);
    expect(second.email).toBe(first.email);
    expect(second.id).not.toBe(first.id);
    expect((await rcpt(first.email)).code).toBe(250);
  });

  it('only active aliases are sender addresses: compose refuses a deleted one', async () => {
    const ned = await mailUser(ctx, 'Ned Sender');
    const alias = await createFree(ned);
    await api(ned.browser, 'deleteAlias', { params: { id: alias.id } });
    const profile = await api(ned.browser, 'createProfile', { body: { name: 'Desk', email: alias.email } });
    expect(profile.status).toBe(400);
    expect(profile.code).toBe('failed_validation_email_address');
  });
});

describe('password access to an alias', () => {
  const password = 'desk password 1';

  it('set twice and equal, it signs in as the alias-only user', async () => {
    const ola = await mailUser(ctx, 'Ola Access');
    const alias = await createFree(ola);
    const set = await api(ola.browser, 'updateAliasAccess', {
      body: {
        email: alias.email,
        password,
        password_confirm: password,
      },
    });
    expect(set.status).toBe(200);
    expect(set.body.alias).toMatchObject({ id: alias.id, password_access: true });
    expect((await api(ola.browser, 'aliases')).body.aliases[0].password_access).toBe(true);
    const stored = await db
      .selectFrom('password_accesses')
      .select('password_hash')
      .where('email', '=', alias.email)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
    const desk = new Browser(app);
    const signed = await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password } });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().user.info.alias).toBe(alias.email);
  });

  it('passwords that differ: passwords_do_not_match; no @: alias_has_no_at; not an alias of the account: alias_not_found', async () => {
    const pia = await mailUser(ctx, 'Pia Access');
    const alias = await createFree(pia);
    const other = await mailUser(ctx, 'Quin Other');
    const othersAlias = await createFree(other);
    const cases: [unknown, number, string][] = [
      [{ email: alias.email, password, password_confirm: `${password}x` }, 400, 'passwords_do_not_match'],
      [{ email: alias.email.split('@')[0], password, password_confirm: password }, 400, 'alias_has_no_at'],
      [{ email: othersAlias.email, password, password_confirm: password }, 404, 'alias_not_found'],
      [{ email: othersAlias.email, password: null }, 404, 'alias_not_found'],
      [{ email: pia.email, password, password_confirm: password }, 404, 'alias_not_found'],
      [{ email: `nobody@mailroom.test`, password: null }, 404, 'alias_not_found'],
    ];
    for (const [body, status, code] of cases) {
      const r = await api(pia.browser, 'updateAliasAccess', { body: body });
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.code, JSON.stringify(body)).toBe(code);
    }
    expect(
      await db
        .selectFrom('password_accesses')
        .select('email')
        .where('email', '=', othersAlias.email)
        .execute(),
    ).toEqual([]);
  });

  it('removing it (password: null) ends its open sessions and its sign-in', async () => {
    const rae = await mailUser(ctx, 'Rae Remove');
    const alias = await createFree(rae);
    await api(rae.browser, 'updateAliasAccess', {
      body: {
        email: alias.email,
        password,
        password_confirm: password,
      },
    });
    const desk = new Browser(app);
    await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password } });
    expect((await api(desk, 'account')).status).toBe(200);
    const removed = await api(rae.browser, 'updateAliasAccess', {
      body: {
        email: alias.email,
        password: null,
      },
    });
    expect(removed.body.alias.password_access).toBe(false);
    expect((await api(desk, 'account')).status).toBe(401);
    const again = await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password } });
    expect(again.json().error.meta.i8s).toBe('incorrect_login_or_password');
    // The owner's own session goes on.
    expect((await api(rae.browser, 'account')).status).toBe(200);
  });

  it("deleting the alias ends its sessions and its password's sign-in", async () => {
    const sam = await mailUser(ctx, 'Sam Gone');
    const alias = await createFree(sam);
    await api(sam.browser, 'updateAliasAccess', {
      body: {
        email: alias.email,
        password,
        password_confirm: password,
      },
    });
    const desk = new Browser(app);
    await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password } });
    const live = await LiveClient.open(wsUrl, { token: desk.cookies.get('mr_sid')! });
    await live.greet();
    await api(sam.browser, 'deleteAlias', { params: { id: alias.id } });
    await live.closedWithin(5000);
    expect((await api(desk, 'account')).status).toBe(401);
    const again = await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password } });
    expect(again.json().error.meta.i8s).toBe('incorrect_login_or_password');
  });

  it('a sixth change within an hour is alias_access_limit, kept in the database; an hour later it works again', async () => {
    const tia = await mailUser(ctx, 'Tia Limit');
    const alias = await createFree(tia);
    for (let i = 0; i < 5; i++) {
      const r = await api(tia.browser, 'updateAliasAccess', {
        body: {
          email: alias.email,
          ...(i % 2
            ? { password: null }
            : { password: `${password}${i}`, password_confirm: `${password}${i}` }),
        },
      });
      expect(r.status, `change ${i + 1}`).toBe(200);
    }
    const sixth = await api(tia.browser, 'updateAliasAccess', {
      body: {
        email: alias.email,
        password: null,
      },
    });
    expect(sixth.status).toBe(429);
    expect(sixth.code).toBe('alias_access_limit');
    // Another process serves the next one the same way: the count is in the database, not in memory.
    const other = await createTestApp({ db });
    const browserThere = new Browser(other.app);
    browserThere.cookies.set('mr_sid', tia.browser.cookies.get('mr_sid')!);
    const there = await api(browserThere, 'updateAliasAccess', {
      body: {
        email: alias.email,
        password: null,
      },
    });
    expect(there.code).toBe('alias_access_limit');
    const later = await changeAliasAccess(
      db,
      tia.accountId,
      { email: alias.email, password: null },
      new Date(Date.now() + 3601_000),
    );
    expect(later.password_access).toBe(false);
  });
});

describe("another account's alias is alias_not_found, never data", () => {
  it('delete and update_access by id or address of another account', async () => {
    const uma = await mailUser(ctx, 'Uma Owner');
    const vic = await mailUser(ctx, 'Vic Intruder');
    const alias = await createFree(uma);
    const del = await api(vic.browser, 'deleteAlias', { params: { id: alias.id } });
    expect(del.status).toBe(404);
    expect(del.code).toBe('alias_not_found');
    expect(JSON.stringify(del.body)).not.toContain(alias.email);
    expect((await rcpt(alias.email)).code).toBe(250);
    expect((await api(vic.browser, 'aliases')).body.aliases).toEqual([]);
  });
});

describe('the owner’s other tabs are told', () => {
  it('create, access and delete each reach a second socket as updateAccount aliases', async () => {
    const wes = await mailUser(ctx, 'Wes Live');
    const other = await LiveClient.open(wsUrl, { token: wes.browser.cookies.get('mr_sid') });
    await other.greet();
    const from = other.frames.length;
    const alias = await createFree(wes);
    await api(wes.browser, 'updateAliasAccess', { body: { email: alias.email, password: null } });
    await api(wes.browser, 'deleteAlias', { params: { id: alias.id } });
    const told: MailEvent = { event: 'updateAccount', part: 'aliases' };
    expect(await other.events(from, 3)).toEqual([told, told, told]);
  });
});

describe('the alias-only session is kept out of settings/aliases', () => {
  it('every alias route answers forbidden to a password session on an alias', async () => {
    const xia = await mailUser(ctx, 'Xia Owner');
    const alias = await createFree(xia);
    const password = 'desk password 2';
    await api(xia.browser, 'updateAliasAccess', {
      body: {
        email: alias.email,
        password,
        password_confirm: password,
      },
    });
    const desk = new Browser(app);
    await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password } });
    const calls: RouteCall[] = [
      ['aliases'],
      ['createAlias', { body: { name: fresh() } }],
      ['deleteAlias', { params: { id: alias.id } }],
      ['updateAliasAccess', { body: { email: alias.email, password: null } }],
    ];
    for (const call of calls) {
      const r = await apiCall(desk, call);
      expect(r.status, call[0]).toBe(403);
      expect(r.code, call[0]).toBe('forbidden');
    }
    expect((await api(xia.browser, 'aliases')).body.aliases[0].password_access).toBe(true);
  });
});

describe('the passport level', () => {
  it("comes from the embedded provider's sign-up, through its claim, and is stored at sign-in", async () => {
    for (const level of ['none', 'verified'] as const) {
      const { browser, memberId } = await signUpAndSignIn(app, `Passport ${level}`, '/mail', level);
      const row = await db
        .selectFrom('accounts')
        .select('passport_level')
        .where('member_id', '=', memberId)
        .executeTakeFirstOrThrow();
      expect(row.passport_level).toBe(level);
      const r = await api(browser, 'createAlias', { body: { name: fresh() } });
      expect(r.status).toBe(level === 'none' ? 403 : 200);
    }
  });

  it('the sign-up page offers the levels in English and Russian', async () => {
    const browser = new Browser(app);
    const { url } = await browser.follow(apiPath('signIn', { query: { redirect: '/mail' } }));
    const uid = new URL(url).pathname.split('/')[3]!;
    const en = (await browser.get(`/idp/interaction/${uid}/signup?lang=en`)).body;
    expect(en).toContain('Passport level');
    expect(en).toMatch(/<option value="formal" selected>Formal<\/option>/);
    const ru = (await browser.get(`/idp/interaction/${uid}/signup?lang=ru`)).body;
    expect(ru).toContain('Уровень паспорта');
    expect(ru).toContain('Проверенный');
  });
});

describe('accounts made without a sign-in', () => {
  it('have no passport (none) until the provider reports one', async () => {
    const account = await createAccount(db, 'No Sign-in');
    const row = await db
      .selectFrom('accounts')
      .select('passport_level')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.passport_level).toBe('none');
  });
});
