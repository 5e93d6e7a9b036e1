import { describe, expect, it } from 'vitest';
import type { Browser } from '../_util.js';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { LiveClient, listenWs } from '../_ws.js';
import { api, apiCall, type RouteCall } from '../_client.js';

// The file signs in far more often than AUTH_RATE_LIMIT allows one address a minute.
const ctx = await createTestApp({ env: { AUTH_RATE_LIMIT: '10000' } });
const { db } = ctx;
const wsUrl = await listenWs(ctx.app);

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
  (await api(browser, 'folderMessages', { params: { folder_id: folderId } })).body.messages?.map(
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
  expect((await api(ann.browser, 'grantImpersonation', { query: { member_id: bobId } })).status).toBe(200);
  return { ann, bob, annId, bobId };
}

describe('impersonation: opening a mailbox shared with the member', () => {
  it('the grantee sees it, switches in, works with the mail, and switches back', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    const shared = await api(bob.browser, 'sharedMailboxes');
    expect(shared.body).toEqual({ mailboxes: [{ member_id: annId, email: ann.email, name: 'Ann Lee' }] });
    expect((await api(ann.browser, 'sharedMailboxes')).body.mailboxes).toEqual([]);

    const before = bob.browser.cookies.get('mr_sid');
    const switched = await api(bob.browser, 'impersonate', { body: { member_id: annId } });
    expect(switched.status).toBe(200);
    expect(switched.body).toEqual({
      email: ann.email,
      member_id: annId,
      name: 'Ann Lee',
      info: { alias: null, impersonator: { member_id: bobId, email: bob.email } },
    });
    // A new session id; the old one is ended.
    expect(bob.browser.cookies.get('mr_sid')).not.toBe(before);
    const user = await api(bob.browser, 'user');
    expect(user.body[0].user_info.info.impersonator).toEqual({ member_id: bobId, email: bob.email });
    expect(await subjects(bob.browser, ann.folders.inbox)).toEqual(['For Ann']);
    // Bob's own Inbox is not this mailbox's.
    expect(
      (await api(bob.browser, 'folderMessages', { params: { folder_id: bob.folders.inbox } })).status,
    ).toBe(404);

    const back = await api(bob.browser, 'endImpersonation');
    expect(back.status).toBe(200);
    expect(back.body).toEqual({
      email: bob.email,
      member_id: bobId,
      name: 'Bob Chen',
      info: { alias: null },
    });
    expect(await subjects(bob.browser, bob.folders.inbox)).toEqual(['For Bob']);
    const notIn = await api(bob.browser, 'endImpersonation');
    expect(notIn.status).toBe(400);
  });

  it('a member without a grant, an unknown member and one\u2019s own member ID are refused', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    const carl = await mailUser(ctx, 'Carl Diaz');
    expect((await api(carl.browser, 'impersonate', { body: { member_id: annId } })).status).toBe(403);
    expect((await api(carl.browser, 'impersonate', { body: { member_id: '999999999999' } })).status).toBe(
      403,
    );
    const own = await api(bob.browser, 'impersonate', { body: { member_id: bobId } });
    expect(own.status).toBe(400);
    expect(own.body.error.meta.i8s).toBe('invalid_member_id2');
    for (const body of [{}, { member_id: '12' }, { member_id: 123456789012 }]) {
      const bad = await api(bob.browser, 'impersonate', { body: body });
      expect(bad.status, JSON.stringify(body)).toBe(400);
    }
    // Ann granted Bob, not the other way round.
    expect((await api(ann.browser, 'impersonate', { body: { member_id: bobId } })).status).toBe(403);
    // Carl still has his own mailbox.
    expect((await api(carl.browser, 'access')).body.member_id).not.toBe(annId);
  });

  it('an impersonating session is refused on security routes, support, aliases and granting', async () => {
    const { bob, annId, bobId } = await setUp();
    await api(bob.browser, 'impersonate', { body: { member_id: annId } });
    const memberId = { query: { member_id: bobId } };
    const routes: RouteCall[] = [
      ['security'],
      ['sendPasswordCode', { body: { purpose: 'new' } }],
      ['updateUserInfo', { body: { first_name: 'Mal', last_name: 'Lory' } }],
      ['authLog'],
      ['grantImpersonation', memberId],
      ['revokeImpersonation', memberId],
      ['grantBaImpersonation', memberId],
      ['baList'],
      ['supportRequests'],
      ['createSupportRequest', { body: { subject: 'Help', text: 'Please' } }],
      // Aliases cost money and open the mailbox to passwords: the owner's alone.
      ['aliases'],
      ['createAlias', { body: { name: 'delegate-made' } }],
      ['createPaidAlias', { body: { name: 'delegate-bought' } }],
      ['updateAliasAccess', { body: { email: 'x@mailroom.test', password: null } }],
    ];
    for (const call of routes) expect((await apiCall(bob.browser, call)).status, call[0]).toBe(403);
    // The member's own list of shared mailboxes stays reachable (the way to another one, or back).
    expect((await api(bob.browser, 'sharedMailboxes')).body.mailboxes).toHaveLength(1);
  });

  it('revoking ends the live impersonation at once: the session is gone and its websocket closes', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    await api(bob.browser, 'impersonate', { body: { member_id: annId } });
    const live = await LiveClient.open(wsUrl, { token: bob.browser.cookies.get('mr_sid')! });
    const revoked = await api(ann.browser, 'revokeImpersonation', { query: { member_id: bobId } });
    expect(revoked.status).toBe(200);
    expect(await live.closedWithin(2000)).toEqual({ code: 1008, reason: 'session ended' });
    expect(
      (await api(bob.browser, 'folderMessages', { params: { folder_id: ann.folders.inbox } })).status,
    ).toBe(401);
    expect(
      await db.selectFrom('sessions').select('id').where('actor_account_id', '=', bob.accountId).execute(),
    ).toEqual([]);
    // Ann's own session goes on, and Bob can no longer open the mailbox.
    expect((await api(ann.browser, 'access')).status).toBe(200);
    bob.browser.cookies.delete('mr_sid');
    expect((await api(bob.browser, 'sharedMailboxes')).status).toBe(401);
  });

  it('revoking ends only that member\u2019s sessions in that mailbox', async () => {
    const { ann, bob, annId } = await setUp();
    const carl = await mailUser(ctx, 'Carl Diaz');
    const carlId = await memberIdOf(carl);
    await api(ann.browser, 'grantImpersonation', { query: { member_id: carlId } });
    await api(bob.browser, 'impersonate', { body: { member_id: annId } });
    await api(carl.browser, 'impersonate', { body: { member_id: annId } });
    await api(ann.browser, 'revokeImpersonation', { query: { member_id: carlId } });
    expect((await api(carl.browser, 'access')).status).toBe(401);
    expect((await api(bob.browser, 'access')).body.email).toBe(ann.email);
  });

  it('both auth logs record each switch in and out, and a refused one', async () => {
    const { ann, bob, annId, bobId } = await setUp();
    const carl = await mailUser(ctx, 'Carl Diaz');
    await api(bob.browser, 'impersonate', { body: { member_id: annId } });
    await api(bob.browser, 'endImpersonation');
    await api(carl.browser, 'impersonate', { body: { member_id: annId } });
    const carlId = await memberIdOf(carl);

    const entries = async (user: MailUser) =>
      (await api(user.browser, 'authLog')).body.entries.map(
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
    await api(ann.browser, 'grantImpersonation', { query: { member_id: await memberIdOf(bob) } });
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
        api(bob.browser, 'impersonate', { body: { member_id: annId } }),
        api(ann.browser, 'revokeImpersonation', { query: { member_id: bobId } }),
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
