import { describe, expect, it } from 'vitest';
import type { Browser } from './_util.js';
import { createTestApp } from './_util.js';
import { mailUser, type MailUser } from './_actions.js';
import { LiveClient, listenWs } from './_ws.js';

// The file signs in far more often than AUTH_RATE_LIMIT allows one address a minute.
const ctx = await createTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
const { db } = ctx;
const wsUrl = await listenWs(ctx.app);

const SECURITY = '/api/v1/user/settings/security';

async function json(browser: Browser, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const response = await browser.request(method, url, body === undefined ? {} : { json: body });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.statusCode, body: response.json() as any };
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

const subjects = async (browser: Browser, folderId: number) =>
  (await json(browser, 'GET', `/api/v1/messages/folder/${folderId}`)).body.messages?.map(
    (m: { subject: string }) => m.subject,
  );

/** Ann has granted Bob impersonation; each has a message of their own. */
async function setUp() {
  const ann = await mailUser(ctx, 'Ann Lee');
  const bob = await mailUser(ctx, 'Bob Chen');
  await ann.deliver({ from: 'x@example.com', subject: 'For Ann', text: 'hello' });
  await bob.deliver({ from: 'x@example.com', subject: 'For Bob', text: 'hello' });
  const annId = await memberIdOf(ann);
  const bobId = await memberIdOf(bob);
  expect((await json(ann.browser, 'POST', `${SECURITY}/impersonation?member_id=${bobId}`)).status).toBe(200);
  return { ann, bob, annId, bobId };
}

describe('impersonation: opening a mailbox shared with the member', () => {
  it('the grantee sees it, switches in, works with the mail, and switches back', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    const shared = await json(bob.browser, 'GET', '/api/v1/user/shared-mailboxes');
    expect(shared.body).toEqual({ mailboxes: [{ member_id: annId, email: ann.email, name: 'Ann Lee' }] });
    expect((await json(ann.browser, 'GET', '/api/v1/user/shared-mailboxes')).body.mailboxes).toEqual([]);

    const before = bob.browser.cookies.get('mr_sid');
    const switched = await json(bob.browser, 'POST', '/auth/impersonate', { member_id: annId });
    expect(switched.status).toBe(200);
    expect(switched.body).toEqual({
      email: ann.email,
      member_id: annId,
      name: 'Ann Lee',
      info: { alias: null, impersonator: { member_id: bobId, email: bob.email } },
    });
    // A new session id; the old one is ended.
    expect(bob.browser.cookies.get('mr_sid')).not.toBe(before);
    const user = await json(bob.browser, 'GET', '/api/v1/user');
    expect(user.body[0].user_info.info.impersonator).toEqual({ member_id: bobId, email: bob.email });
    expect(await subjects(bob.browser, ann.folders.inbox)).toEqual(['For Ann']);
    // Bob's own Inbox is not this mailbox's.
    expect((await json(bob.browser, 'GET', `/api/v1/messages/folder/${bob.folders.inbox}`)).status).toBe(404);

    const back = await json(bob.browser, 'POST', '/auth/impersonate/end');
    expect(back.status).toBe(200);
    expect(back.body).toEqual({
      email: bob.email,
      member_id: bobId,
      name: 'Bob Chen',
      info: { alias: null },
    });
    expect(await subjects(bob.browser, bob.folders.inbox)).toEqual(['For Bob']);
    const notIn = await json(bob.browser, 'POST', '/auth/impersonate/end');
    expect(notIn.status).toBe(400);
  });

  it('a member without a grant, an unknown member and one\u2019s own member ID are refused', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    const carl = await mailUser(ctx, 'Carl Diaz');
    expect((await json(carl.browser, 'POST', '/auth/impersonate', { member_id: annId })).status).toBe(403);
    expect(
      (await json(carl.browser, 'POST', '/auth/impersonate', { member_id: '999999999999' })).status,
    ).toBe(403);
    const own = await json(bob.browser, 'POST', '/auth/impersonate', { member_id: bobId });
    expect(own.status).toBe(400);
    expect(own.body.error.meta.i8s).toBe('invalid_member_id2');
    for (const body of [{}, { member_id: '12' }, { member_id: 123456789012 }]) {
      const bad = await json(bob.browser, 'POST', '/auth/impersonate', body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    // Ann granted Bob, not the other way round.
    expect((await json(ann.browser, 'POST', '/auth/impersonate', { member_id: bobId })).status).toBe(403);
    // Carl still has his own mailbox.
    expect((await json(carl.browser, 'GET', '/auth/access')).body.member_id).not.toBe(annId);
  });

  it('an impersonating session is refused on security routes, support, aliases and granting', async () => {
    const { bob, annId, bobId } = await setUp();
    await json(bob.browser, 'POST', '/auth/impersonate', { member_id: annId });
    const routes: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
      ['GET', SECURITY],
      ['POST', `${SECURITY}/password/sendcode`, { purpose: 'new' }],
      ['POST', `${SECURITY}/userinfo`, { first_name: 'Mal', last_name: 'Lory' }],
      ['GET', `${SECURITY}/auth-log`],
      ['POST', `${SECURITY}/impersonation?member_id=${bobId}`],
      ['DELETE', `${SECURITY}/impersonation?member_id=${bobId}`],
      ['POST', `${SECURITY}/ba-impersonation?member_id=${bobId}`],
      ['GET', `${SECURITY}/ba-list`],
      ['GET', '/api/v1/user/support'],
      ['POST', '/api/v1/user/support', { subject: 'Help', text: 'Please' }],
      // Aliases cost money and open the mailbox to passwords: the owner's alone.
      ['GET', '/api/v1/user/aliases'],
      ['POST', '/api/v1/user/aliases', { name: 'delegate-made' }],
      ['POST', '/api/v1/user/aliases/paid', { name: 'delegate-bought' }],
      ['PUT', '/api/v1/user/aliases/update_access', { email: 'x@mailroom.test', password: null }],
    ];
    for (const [method, url, body] of routes)
      expect((await json(bob.browser, method, url, body)).status, `${method} ${url}`).toBe(403);
    // The member's own list of shared mailboxes stays reachable (the way to another one, or back).
    expect((await json(bob.browser, 'GET', '/api/v1/user/shared-mailboxes')).body.mailboxes).toHaveLength(1);
  });

  it('revoking ends the live impersonation at once: the session is gone and its websocket closes', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    await json(bob.browser, 'POST', '/auth/impersonate', { member_id: annId });
    const live = await LiveClient.open(wsUrl, { token: bob.browser.cookies.get('mr_sid')! });
    const revoked = await json(ann.browser, 'DELETE', `${SECURITY}/impersonation?member_id=${bobId}`);
    expect(revoked.status).toBe(200);
    expect(await live.closedWithin(2000)).toEqual({ code: 1008, reason: 'session ended' });
    expect((await json(bob.browser, 'GET', `/api/v1/messages/folder/${ann.folders.inbox}`)).status).toBe(401);
    expect(
      await db.selectFrom('sessions').select('id').where('actor_account_id', '=', bob.accountId).execute(),
    ).toEqual([]);
    // Ann's own session goes on, and Bob can no longer open the mailbox.
    expect((await json(ann.browser, 'GET', '/auth/access')).status).toBe(200);
    bob.browser.cookies.delete('mr_sid');
    expect((await json(bob.browser, 'GET', '/api/v1/user/shared-mailboxes')).status).toBe(401);
  });

  it('revoking ends only that member\u2019s sessions in that mailbox', async () => {
    const { ann, bob, annId } = await setUp();
    const carl = await mailUser(ctx, 'Carl Diaz');
    const carlId = await memberIdOf(carl);
    await json(ann.browser, 'POST', `${SECURITY}/impersonation?member_id=${carlId}`);
    await json(bob.browser, 'POST', '/auth/impersonate', { member_id: annId });
    await json(carl.browser, 'POST', '/auth/impersonate', { member_id: annId });
    await json(ann.browser, 'DELETE', `${SECURITY}/impersonation?member_id=${carlId}`);
    expect((await json(carl.browser, 'GET', '/auth/access')).status).toBe(401);
    expect((await json(bob.browser, 'GET', '/auth/access')).body.email).toBe(ann.email);
  });

  it('both auth logs record each switch in and out, and a refused one', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    const carl = await mailUser(ctx, 'Carl Diaz');
    await json(bob.browser, 'POST', '/auth/impersonate', { member_id: annId });
    await json(bob.browser, 'POST', '/auth/impersonate/end');
    await json(carl.browser, 'POST', '/auth/impersonate', { member_id: annId });
    const carlId = await memberIdOf(carl);

    const entries = async (user: MailUser) =>
      (await json(user.browser, 'GET', `${SECURITY}/auth-log`)).body.entries.map(
        (e: { method: string; success: boolean; address: string; member_id: string }) => [
          e.method,
          e.success,
          e.address,
          e.member_id,
        ],
      );
    expect(await entries(ann)).toEqual([
      ['impersonation', false, ann.email, carlId],
      ['impersonation', true, bob.email, bobId],
      ['impersonation', true, ann.email, bobId],
      ['sso', true, ann.email, null],
    ]);
    expect(await entries(bob)).toEqual([
      ['impersonation', true, bob.email, annId],
      ['impersonation', true, ann.email, annId],
      ['sso', true, bob.email, null],
    ]);
    expect((await entries(carl))[0]).toEqual(['impersonation', false, ann.email, annId]);
  });

  it('a grant reaches the grantee as a shared event and the owner as a security event', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const bob = await mailUser(ctx, 'Bob Chen');
    const annLive = await LiveClient.open(wsUrl, { token: ann.browser.cookies.get('mr_sid')! });
    const bobLive = await LiveClient.open(wsUrl, { token: bob.browser.cookies.get('mr_sid')! });
    await json(ann.browser, 'POST', `${SECURITY}/impersonation?member_id=${await memberIdOf(bob)}`);
    const has = (client: LiveClient, part: string) =>
      client.frames.some((f) => f.data.includes('updateAccount') && f.data.includes(`"${part}"`));
    for (let i = 0; i < 50 && !(has(annLive, 'security') && has(bobLive, 'shared')); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(has(annLive, 'security')).toBe(true);
    expect(has(bobLive, 'shared')).toBe(true);
  });

  it('an impersonation racing its revocation never outlives it', async () => {
    for (let round = 0; round < 5; round++) {
      const { ann, bob, annId, bobId } = await setUp();
      await Promise.all([
        json(bob.browser, 'POST', '/auth/impersonate', { member_id: annId }),
        json(ann.browser, 'DELETE', `${SECURITY}/impersonation?member_id=${bobId}`),
      ]);
      const left = await db
        .selectFrom('sessions')
        .select('id')
        .where('account_id', '=', ann.accountId)
        .where('actor_account_id', '=', bob.accountId)
        .execute();
      expect(left).toEqual([]);
    }
  });
});
