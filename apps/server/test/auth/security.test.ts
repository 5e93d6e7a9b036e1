import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_TTL_SECONDS } from '@mailroom/protocol';
import { Browser, createTestApp } from '../_util.js';
import { createAccount } from '../_mail.js';
import { mailUser, type MailUser } from '../_actions.js';
import { createSession } from '../../src/auth/index.js';
import { sandboxWalletOf } from '../../src/wallet/index.js';
import { deleteOldAuthLog } from '../../src/auth/index.js';
import { apiRequest, apiPath } from '../_client.js';

// The file signs in far more often than AUTH_RATE_LIMIT allows one address a minute.
const ctx = await createTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
const { app, db } = ctx;

afterEach(() => {
  vi.useRealTimers();
});

const SECURITY = apiPath('security');

async function json(browser: Browser, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const response = await browser.request(method, url, body === undefined ? {} : { json: body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.statusCode, body: response.json() as any };
}

const code = (response: { body: { error?: { meta: { i8s: string } } } }) => response.body.error?.meta.i8s;

/** The newest code the member's (sandbox) wallet application received. */
async function lastCode(memberId: string): Promise<string> {
  const { notices } = await sandboxWalletOf(db, memberId);
  const notice = notices.find((n) => n.kind === 'code');
  const found = /\b(\d{6})\b/.exec(notice?.text ?? '')?.[1];
  if (!found) throw new Error(`no code notice for ${memberId}`);
  return found;
}

async function memberIdOf(user: MailUser): Promise<string> {
  return (
    await db
      .selectFrom('accounts')
      .select('member_id')
      .where('id', '=', user.accountId)
      .executeTakeFirstOrThrow()
  ).member_id;
}

/** Sets the mailbox password through the routes, as the settings screen does. */
async function setPassword(user: MailUser, password: string) {
  expect((await json(user.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' })).status).toBe(
    200,
  );
  const sent = await lastCode(await memberIdOf(user));
  const set = await json(user.browser, 'POST', `${SECURITY}/password/new`, {
    code: sent,
    password,
    password_confirm: password,
  });
  expect(set.status).toBe(200);
  return set.body;
}

describe('the security section', () => {
  it('shows the primary address, no password, the name signed up with and no grants at first', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const shown = await json(ann.browser, 'GET', SECURITY);
    expect(shown).toEqual({
      status: 200,
      body: {
        has_password: false,
        password_email: ann.email,
        // Nothing saved yet: the name the account was made with, not empty fields.
        first_name: 'Ann',
        last_name: 'Lee',
        passport_level: 'formal', // as the provider reported it at sign-in (the embedded IdP's default)
        password_codes_locked_until: null,
        impersonation: [],
        ba_impersonation: [],
      },
    });
  });

  it('userinfo stores the names and makes the display name of them', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const saved = await json(ann.browser, 'POST', `${SECURITY}/userinfo`, {
      first_name: '  Анна ',
      last_name: 'Ли',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ first_name: 'Анна', last_name: 'Ли' });
    expect((await json(ann.browser, 'GET', apiPath('access'))).body.name).toBe('Анна Ли');
    const bad = await json(ann.browser, 'POST', `${SECURITY}/userinfo`, {
      first_name: 'x'.repeat(101),
      last_name: '',
    });
    expect(bad.status).toBe(400);
    expect(code(bad)).toBe('invalid_request_params');
    const missing = await json(ann.browser, 'POST', `${SECURITY}/userinfo`, { first_name: 5 });
    expect(missing.status).toBe(400);
  });

  it('a new name carries to the profiles still named as the account was; a profile renamed by hand keeps its name', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const profiles = async () =>
      ((await json(ann.browser, 'GET', apiPath('account'))).body as { profiles: { name: string }[] }).profiles
        .map((p) => p.name)
        .sort();
    const [named] = await profiles();
    expect(named).toBe('Ann Lee');
    const added = await json(ann.browser, 'POST', apiPath('createProfile'), {
      name: 'Sales desk',
      email: ann.email,
    });
    expect(added.status).toBe(200);
    await json(ann.browser, 'POST', `${SECURITY}/userinfo`, { first_name: 'Anna', last_name: 'Lee-Smith' });
    expect(await profiles()).toEqual(['Anna Lee-Smith', 'Sales desk']);
  });
});

describe('the mailbox password and its confirmation codes', () => {
  it('a code goes to the wallet application; with it the password is set and signs in at /auth/pw/login', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const sent = await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' });
    expect(sent).toEqual({ status: 200, body: { expires_in: CODE_TTL_SECONDS } });
    const stored = await db
      .selectFrom('password_codes')
      .selectAll()
      .where('account_id', '=', ann.accountId)
      .execute();
    // Only a keyed hash of the code is stored.
    expect(stored[0]!.code_hash).not.toContain(await lastCode(await memberIdOf(ann)));
    const set = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: await lastCode(await memberIdOf(ann)),
      password: 'mailbox password 1',
      password_confirm: 'mailbox password 1',
    });
    expect(set.status).toBe(200);
    expect(set.body.has_password).toBe(true);

    const desk = new Browser(app);
    const login = await apiRequest(desk, 'passwordSignIn', {
      body: { email: ann.email.toUpperCase(), password: 'mailbox password 1' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.email).toBe(ann.email);
    // The password session is held to the primary address: the security section is not its to see.
    expect((await json(desk, 'GET', SECURITY)).status).toBe(403);
    expect((await json(desk, 'GET', `${SECURITY}/auth-log`)).status).toBe(403);
  });

  it('a code is single use', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    await setPassword(ann, 'first password');
    // The same code again, now for a change: used.
    const again = await json(ann.browser, 'POST', `${SECURITY}/password/change`, {
      code: await lastCode(await memberIdOf(ann)),
      password: 'second password',
      password_confirm: 'second password',
    });
    expect(again.status).toBe(400);
    expect(code(again)).toBe('request_code_not_found');
  });

  it('five wrong codes end the code, the right one included', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' });
    const right = await lastCode(await memberIdOf(ann));
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    for (let i = 0; i < 5; i++) {
      const tried = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
        code: wrong,
        password: 'a password',
        password_confirm: 'a password',
      });
      expect(code(tried)).toBe('request_code_not_found');
    }
    const late = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: right,
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(late.status).toBe(400);
    expect(code(late)).toBe('request_code_not_found');
    expect((await json(ann.browser, 'GET', SECURITY)).body.has_password).toBe(false);
  });

  it('a code expires after CODE_TTL_SECONDS, and a new one may be asked for only once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const ann = await mailUser(ctx, 'Ann Lee');
    expect(
      (await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' })).status,
    ).toBe(200);
    const soon = await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' });
    expect(soon.status).toBe(429);
    expect(code(soon)).toBe('too_many_requests');
    const first = await lastCode(await memberIdOf(ann));

    vi.setSystemTime(start + CODE_TTL_SECONDS * 1000 + 1000);
    const expired = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: first,
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(code(expired)).toBe('request_code_not_found');

    // A minute and more later a new code may be sent, and it works.
    expect(
      (await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' })).status,
    ).toBe(200);
    const fresh = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: await lastCode(await memberIdOf(ann)),
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(fresh.status).toBe(200);
  });

  it('ten codes a day at most: the tenth locks the flow for the rest of the 24 hours, with a notice, then it opens again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Date.now();
    const ann = await mailUser(ctx, 'Ann Lee');
    const memberId = await memberIdOf(ann);
    const send = () => json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' });
    // Each code taken to its five wrong tries, a new one every minute: 7,200 guesses a day without a cap.
    for (let i = 0; i < 10; i++) {
      vi.setSystemTime(start + i * 61_000);
      expect((await send()).status, `code ${i + 1}`).toBe(200);
      for (let wrong = 0; wrong < 5; wrong++)
        await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
          code: '000000',
          password: 'a password',
          password_confirm: 'a password',
        });
    }
    const until = new Date(start + 24 * 3600_000).toISOString();
    const { notices } = await sandboxWalletOf(db, memberId);
    expect(notices.filter((n) => n.kind === 'security').map((n) => n.title)).toEqual([
      'Mailbox password codes locked',
    ]);
    expect((await json(ann.browser, 'GET', SECURITY)).body.password_codes_locked_until).toBe(until);

    vi.setSystemTime(start + 2 * 3600_000);
    const locked = await send();
    expect([locked.status, code(locked)]).toEqual([429, 'password_codes_locked']);
    vi.setSystemTime(start + 24 * 3600_000 - 1000);
    expect(code(await send())).toBe('password_codes_locked');

    // A day after the first code the flow opens again, with a fresh count.
    vi.setSystemTime(start + 24 * 3600_000 + 1000);
    expect((await json(ann.browser, 'GET', SECURITY)).body.password_codes_locked_until).toBeNull();
    expect((await send()).status).toBe(200);
    const set = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: await lastCode(memberId),
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(set.status).toBe(200);
  });

  it('new needs no password yet, change needs one; passwords must match and be long enough', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const noneYet = await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'change' });
    expect(code(noneYet)).toBe('invalid_request_params');
    await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' });
    const sent = await lastCode(await memberIdOf(ann));
    const mismatch = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: sent,
      password: 'a password',
      password_confirm: 'another one',
    });
    expect(code(mismatch)).toBe('passwords_do_not_match');
    const short = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: sent,
      password: 'short',
      password_confirm: 'short',
    });
    expect(code(short)).toBe('password_too_short');
    const notDigits = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: '12a456',
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(code(notDigits)).toBe('request_code_not_found');
    const badPurpose = await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'steal' });
    expect(badPurpose.status).toBe(400);
    // The mismatch and bad bodies did not use the code up.
    const ok = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: sent,
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(ok.status).toBe(200);
    const twice = await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' });
    expect(code(twice)).toBe('invalid_request_params');
  });

  it("a change ends the address's password sessions, and only the new password signs in", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const ann = await mailUser(ctx, 'Ann Lee');
    await setPassword(ann, 'old password');
    const desk = new Browser(app);
    expect(
      (await apiRequest(desk, 'passwordSignIn', { body: { email: ann.email, password: 'old password' } }))
        .statusCode,
    ).toBe(200);
    expect((await json(desk, 'GET', apiPath('access'))).status).toBe(200);

    vi.setSystemTime(Date.now() + 61_000);
    expect(
      (await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'change' })).status,
    ).toBe(200);
    const changed = await json(ann.browser, 'POST', `${SECURITY}/password/change`, {
      code: await lastCode(await memberIdOf(ann)),
      password: 'new password',
      password_confirm: 'new password',
    });
    expect(changed.status).toBe(200);
    expect((await json(desk, 'GET', apiPath('access'))).status).toBe(401);
    // The owner's own session goes on.
    expect((await json(ann.browser, 'GET', apiPath('access'))).status).toBe(200);
    const old = await apiRequest(desk, 'passwordSignIn', {
      body: { email: ann.email, password: 'old password' },
    });
    expect(old.statusCode).toBe(401);
    const fresh = await apiRequest(desk, 'passwordSignIn', {
      body: { email: ann.email, password: 'new password' },
    });
    expect(fresh.statusCode).toBe(200);
  });
});

describe('codes and names are per account', () => {
  it("one account's code does not set another's password, and userinfo changes only the caller", async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    await json(ann.browser, 'POST', `${SECURITY}/password/sendcode`, { purpose: 'new' });
    const annCode = await lastCode(await memberIdOf(ann));
    const stolen = await json(bob.browser, 'POST', `${SECURITY}/password/new`, {
      code: annCode,
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(code(stolen)).toBe('request_code_not_found');
    expect((await json(bob.browser, 'GET', SECURITY)).body.has_password).toBe(false);
    // Ann's code still works for Ann.
    const own = await json(ann.browser, 'POST', `${SECURITY}/password/new`, {
      code: annCode,
      password: 'a password',
      password_confirm: 'a password',
    });
    expect(own.status).toBe(200);
    await json(ann.browser, 'POST', `${SECURITY}/userinfo`, { first_name: 'Ann', last_name: 'Other' });
    expect((await json(bob.browser, 'GET', SECURITY)).body).toMatchObject({
      first_name: 'Bob',
      last_name: 'Chen',
    });
    expect((await json(bob.browser, 'GET', apiPath('access'))).body.name).toBe('Bob Chen');
  });
});

describe('the sign-in log', () => {
  it('behind a trusted proxy records the forwarded client address', async () => {
    const proxied = await createTestApp({ env: { AUTH_RATE_LIMIT: '10000', TRUST_PROXY: 'true' } });
    const ann = await mailUser(proxied, 'Ann Lee');
    const owner = await proxied.db
      .selectFrom('accounts')
      .select('email')
      .where('id', '=', ann.accountId)
      .executeTakeFirstOrThrow();
    const { grantPasswordAccess } = await import('../../src/addresses/index.js');
    await grantPasswordAccess(proxied.db, ann.accountId, owner.email, 'mailbox password');
    const desk = new Browser(proxied.app);
    await apiRequest(desk, 'passwordSignIn', {
      body: { email: owner.email, password: 'mailbox password' },
      headers: { 'x-forwarded-for': '127.0.0.9' },
    });
    const log = await json(ann.browser, 'GET', `${SECURITY}/auth-log`);
    expect(log.body.entries[0]).toMatchObject({ method: 'password', success: true, ip: '127.0.0.9' });
  });

  it('records SSO, password sign-ins and failures with IP and user agent, newest first, paged', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    await setPassword(ann, 'mailbox password');
    const desk = new Browser(app);
    const agent = { 'user-agent': `Desk client ${'x'.repeat(400)}` };
    await apiRequest(desk, 'passwordSignIn', {
      body: { email: ann.email, password: 'wrong password' },
      headers: agent,
      remoteAddress: '127.0.0.7',
    });
    await apiRequest(desk, 'passwordSignIn', {
      body: { email: ann.email, password: 'mailbox password' },
      headers: agent,
      remoteAddress: '127.0.0.8',
    });
    // A wrong password for an address nobody has is in no log.
    await apiRequest(desk, 'passwordSignIn', {
      body: { email: 'nobody@mailroom.test', password: 'whatever1' },
    });

    const log = await json(ann.browser, 'GET', `${SECURITY}/auth-log`);
    expect(log.status).toBe(200);
    expect(log.body.total).toBe(3);
    expect(
      log.body.entries.map((e: { method: string; success: boolean; ip: string }) => [
        e.method,
        e.success,
        e.ip,
      ]),
    ).toEqual([
      ['password', true, '127.0.0.8'],
      ['password', false, '127.0.0.7'],
      ['sso', true, '127.0.0.1'],
    ]);
    expect(log.body.entries[0]).toMatchObject({ address: ann.email, member_id: null });
    expect(log.body.entries[0].user_agent).toHaveLength(300);
    expect(log.body.entries[0].user_agent.startsWith('Desk client')).toBe(true);
    expect(log.body.entries[2].address).toBe(ann.email);

    const page2 = await json(ann.browser, 'GET', `${SECURITY}/auth-log?page=2&limit=2`);
    expect(page2.body).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page2.body.entries.map((e: { method: string }) => e.method)).toEqual(['sso']);
    for (const query of ['page=0', 'limit=101', 'page=x']) {
      const bad = await json(ann.browser, 'GET', `${SECURITY}/auth-log?${query}`);
      expect(bad.status, query).toBe(400);
      expect(code(bad), query).toBe('invalid_request_params');
    }
  });

  it('records a password attempt held back by the throttle as a failure', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    await setPassword(ann, 'mailbox password');
    const stranger = new Browser(app);
    let held = 0;
    for (let i = 0; i < 7; i++) {
      const tried = await apiRequest(stranger, 'passwordSignIn', {
        body: { email: ann.email, password: `guess ${i}` },
      });
      if (tried.statusCode === 429) held++;
    }
    expect(held).toBeGreaterThan(0);
    const log = await json(ann.browser, 'GET', `${SECURITY}/auth-log?limit=100`);
    const failures = log.body.entries.filter((e: { success: boolean }) => !e.success);
    expect(failures).toHaveLength(7);
  });

  it("is each account's own, and the sweep forgets entries older than AUTH_LOG_DAYS", async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    const annLog = (await json(ann.browser, 'GET', `${SECURITY}/auth-log`)).body;
    expect(annLog.entries.every((e: { address: string }) => e.address === ann.email)).toBe(true);
    expect((await json(bob.browser, 'GET', `${SECURITY}/auth-log`)).body.total).toBe(1);

    // A sign-in's time never changes in the product (the schema refuses it): the test ages the rows by hand.
    await sql`update auth_log set at = now() - interval '91 days' where account_id = ${ann.accountId}`.execute(
      db,
    );
    await apiRequest(ann.browser, 'passwordSignIn', {
      body: { email: ann.email, password: 'no password set' },
    });
    expect(await deleteOldAuthLog(db)).toBeGreaterThan(0);
    expect((await json(ann.browser, 'GET', `${SECURITY}/auth-log`)).body.total).toBe(0);
    expect((await json(bob.browser, 'GET', `${SECURITY}/auth-log`)).body.total).toBe(1);
  });
});

describe('grants of impersonation and BA-impersonation', () => {
  it("grant and revoke by member ID; one's own and malformed member IDs are refused with 400", async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    const bobId = await memberIdOf(bob);
    for (const kind of ['impersonation', 'ba-impersonation']) {
      const granted = await json(ann.browser, 'POST', `${SECURITY}/${kind}?member_id=${bobId}`);
      expect(granted.status).toBe(200);
      const field = kind === 'impersonation' ? 'impersonation' : 'ba_impersonation';
      expect(granted.body[field]).toEqual([{ member_id: bobId, granted_at: expect.any(String) }]);
      // Granting again changes nothing.
      expect(
        (await json(ann.browser, 'POST', `${SECURITY}/${kind}?member_id=${bobId}`)).body[field],
      ).toHaveLength(1);
      const own = await json(ann.browser, 'POST', `${SECURITY}/${kind}?member_id=${await memberIdOf(ann)}`);
      expect(own.status).toBe(400);
      expect(code(own)).toBe('invalid_member_id2');
      for (const query of ['', '?member_id=12', '?member_id=abcdefghijkl']) {
        const bad = await json(ann.browser, 'POST', `${SECURITY}/${kind}${query}`);
        expect(bad.status, query).toBe(400);
      }
      const revoked = await json(ann.browser, 'DELETE', `${SECURITY}/${kind}?member_id=${bobId}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body[field]).toEqual([]);
    }
  });

  it('a grant does not tell whether a member ID exists: one nobody has is answered, listed and revoked alike', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    const bobId = await memberIdOf(bob);
    let nobody: string;
    do nobody = String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999));
    while (
      await ctx.db.selectFrom('accounts').select('id').where('member_id', '=', nobody).executeTakeFirst()
    );
    for (const kind of ['impersonation', 'ba-impersonation']) {
      const field = kind === 'impersonation' ? 'impersonation' : 'ba_impersonation';
      const toBob = await json(ann.browser, 'POST', `${SECURITY}/${kind}?member_id=${bobId}`);
      const toNobody = await json(ann.browser, 'POST', `${SECURITY}/${kind}?member_id=${nobody}`);
      expect(toNobody.status).toBe(toBob.status);
      expect(toNobody.status).toBe(200);
      // The section lists the grant as the owner typed it, so a mistyped ID is there to see and revoke.
      expect(toNobody.body[field].map((g: { member_id: string }) => g.member_id).sort()).toEqual(
        [bobId, nobody].sort(),
      );
      const revokedNobody = await json(ann.browser, 'DELETE', `${SECURITY}/${kind}?member_id=${nobody}`);
      const revokedBob = await json(ann.browser, 'DELETE', `${SECURITY}/${kind}?member_id=${bobId}`);
      expect([revokedNobody.status, revokedBob.status]).toEqual([200, 200]);
      expect(revokedBob.body[field]).toEqual([]);
      // Revoking what was never granted is answered the same way too.
      expect((await json(ann.browser, 'DELETE', `${SECURITY}/${kind}?member_id=${nobody}`)).status).toBe(200);
    }
  });

  it('grants are limited per account: past 30 an hour a member is told to wait, another member is not', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        (
          await json(
            ann.browser,
            'POST',
            `${SECURITY}/impersonation?member_id=${String(500_000_000_000 + i)}`,
          )
        ).status,
      );
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    const refused = await json(
      ann.browser,
      'POST',
      `${SECURITY}/impersonation?member_id=${await memberIdOf(bob)}`,
    );
    expect(refused.status).toBe(429);
    expect(code(refused)).toBe('too_many_requests');
    // Per account, not per source address: Bob at the same address still grants.
    expect(
      (await json(bob.browser, 'POST', `${SECURITY}/impersonation?member_id=${await memberIdOf(ann)}`))
        .status,
    ).toBe(200);
  });

  it("one account's grants are not another's: Bob's section shows none of Ann's", async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    const carl = await mailUser(ctx, 'Carl Diaz');
    await json(ann.browser, 'POST', `${SECURITY}/impersonation?member_id=${await memberIdOf(carl)}`);
    expect((await json(bob.browser, 'GET', SECURITY)).body.impersonation).toEqual([]);
    // Bob revoking Carl touches only Bob's grants: Ann's stays.
    await json(bob.browser, 'DELETE', `${SECURITY}/impersonation?member_id=${await memberIdOf(carl)}`);
    expect((await json(ann.browser, 'GET', SECURITY)).body.impersonation).toHaveLength(1);
  });

  it("ba-list answers the member's bank accounts and those of members who granted BA-impersonation", async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    const before = await json(bob.browser, 'GET', `${SECURITY}/ba-list`);
    expect(before.status).toBe(200);
    expect(before.body.bank_accounts).toEqual(await ctx.wallet.bankAccounts(await memberIdOf(bob)));
    expect(before.body.acting_for).toEqual([]);
    await json(ann.browser, 'POST', `${SECURITY}/ba-impersonation?member_id=${await memberIdOf(bob)}`);
    const after = await json(bob.browser, 'GET', `${SECURITY}/ba-list`);
    expect(after.body.acting_for).toEqual([
      {
        member_id: await memberIdOf(ann),
        name: 'Ann Lee',
        bank_accounts: await ctx.wallet.bankAccounts(await memberIdOf(ann)),
      },
    ]);
    // BA-impersonation does not share the mailbox.
    expect((await json(bob.browser, 'GET', apiPath('sharedMailboxes'))).body.mailboxes).toEqual([]);
  });
});

describe('who may use the security routes', () => {
  it('an anonymous request gets 401 and a session held to one address gets forbidden on every one', async () => {
    const owner = await createAccount(db, 'Owner');
    const alias = `desk-${owner.id}@mailroom.test`;
    await db.insertInto('aliases').values({ account_id: owner.id, email: alias }).execute();
    const { grantPasswordAccess } = await import('../../src/addresses/index.js');
    await grantPasswordAccess(db, owner.id, alias, 'desk-password');
    const desk = new Browser(app);
    expect(
      (await apiRequest(desk, 'passwordSignIn', { body: { email: alias, password: 'desk-password' } }))
        .statusCode,
    ).toBe(200);
    const anonymous = new Browser(app);
    const someone = (await createAccount(db, 'Someone')).member_id;
    const routes: ['GET' | 'POST' | 'DELETE', string, unknown?][] = [
      ['GET', SECURITY],
      ['POST', `${SECURITY}/password/sendcode`, { purpose: 'new' }],
      [
        'POST',
        `${SECURITY}/password/new`,
        { code: '123456', password: 'a password', password_confirm: 'a password' },
      ],
      [
        'POST',
        `${SECURITY}/password/change`,
        { code: '123456', password: 'a password', password_confirm: 'a password' },
      ],
      ['POST', `${SECURITY}/userinfo`, { first_name: 'A', last_name: 'B' }],
      ['GET', `${SECURITY}/auth-log`],
      ['POST', `${SECURITY}/impersonation?member_id=${someone}`],
      ['DELETE', `${SECURITY}/impersonation?member_id=${someone}`],
      ['POST', `${SECURITY}/ba-impersonation?member_id=${someone}`],
      ['DELETE', `${SECURITY}/ba-impersonation?member_id=${someone}`],
      ['GET', `${SECURITY}/ba-list`],
      ['GET', apiPath('sharedMailboxes')],
      ['GET', apiPath('supportRequests')],
      ['GET', apiPath('supportDiagnostics')],
      ['POST', apiPath('supportRequests'), { subject: 'Help', text: 'Please' }],
      ['POST', apiPath('impersonate'), { member_id: someone }],
    ];
    for (const [method, url, body] of routes) {
      expect((await json(desk, method, url, body)).status, `${method} ${url}`).toBe(403);
      expect((await json(anonymous, method, url, body)).status, `${method} ${url}`).toBe(401);
    }
    expect(
      await db.selectFrom('access_grants').selectAll().where('account_id', '=', owner.id).execute(),
    ).toEqual([]);
  });

  it('a session the server made by hand for the owner is the owner', async () => {
    const owner = await createAccount(db, 'Owner');
    const browser = new Browser(app);
    browser.cookies.set(
      'mr_sid',
      (await createSession(db, { accountId: owner.id, aliasEmail: null }, 60_000)).token,
    );
    expect((await json(browser, 'GET', SECURITY)).body.password_email).toBe(owner.email);
  });
});
