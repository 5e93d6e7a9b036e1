import { describe, expect, it } from 'vitest';
import type { DomainEmail } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { smtpTransport, startTestIngest } from '../_smtp.js';
import { startMxDns } from '../_mx-dns.js';
import { compose, until } from '../_sending.js';
import { LiveClient, listenWs } from '../_ws.js';
import { scopeOf, senderAddressesOf } from '../../src/addresses/index.js';
import { api } from '../_client.js';

const MX_HOST = 'mx.mailroom.test';
const dns = await startMxDns();
const ctx = await createTestApp({ env: { DNS_SERVERS: dns.server, MX_HOST, AUTH_RATE_LIMIT: '10000' } });
const { db } = ctx;
const ingest = await startTestIngest({ db });
const wsUrl = await listenWs(ctx.app);

const subjectsOf = (r: { body: { messages?: { subject: string }[] } }) =>
  r.body.messages?.map((m) => m.subject);

let seq = 0;
const freshDomain = () => `deleg${Date.now().toString(36)}${seq++}.test`;

async function memberIdOf(user: MailUser): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('member_id')
    .where('id', '=', user.accountId)
    .executeTakeFirstOrThrow();
  return row.member_id;
}

/**
 * Ann owns a verified domain (a fixture row: the domains flow is not under test) with an active address that has
 * received one message over SMTP; her primary address has a private one. Bob is another member.
 */
async function setUp() {
  const ann = await mailUser(ctx, 'Ann Owner');
  const bob = await mailUser(ctx, 'Bob Delegate');
  const name = freshDomain();
  const domain = await db
    .insertInto('domains')
    .values({
      account_id: ann.accountId,
      kind: 'own',
      name,
      display_name: name,
      status: 'succeed',
      token: `fixture-${name}`,
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  dns.mx.set(name, [MX_HOST]);
  const created = await api(ann.browser, 'createDomainEmail', {
    params: { id: domain.id },
    body: { name: 'sales' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const email = (await api(ann.browser, 'confirmDomainEmail', { params: { emailId: created.body.email.id } }))
    .body.email as DomainEmail;
  expect(email.status).toBe('succeed');
  await smtpTransport(ingest.port).sendMail({
    from: 'buyer@example.com',
    to: email.email,
    subject: 'Quote request',
    text: 'hello',
  });
  await until(
    async () =>
      (
        await db
          .selectFrom('messages')
          .select('id')
          .where('subject', '=', 'Quote request')
          .where('account_id', '=', ann.accountId)
          .execute()
      ).length > 0,
  );
  await ann.deliver({ from: 'x@example.com', subject: 'Private to Ann', text: 'secret' });
  const emailParams = { id: domain.id, emailId: email.id };
  return { ann, bob, domain, email, emailParams, annId: await memberIdOf(ann), bobId: await memberIdOf(bob) };
}

describe('delegating an address on a domain', () => {
  it('the delegate sees it, opens it, reads and sends as it, and nothing else of the owner’s', async () => {
    const { ann, bob, email, emailParams, annId, bobId } = await setUp();
    const annLive = await LiveClient.open(wsUrl, { token: ann.browser.cookies.get('mr_sid') });
    const bobLive = await LiveClient.open(wsUrl, { token: bob.browser.cookies.get('mr_sid') });
    await annLive.greet();
    await bobLive.greet();
    const [annFrom, bobFrom] = [annLive.frames.length, bobLive.frames.length];

    const delegated = await api(ann.browser, 'delegateDomainEmail', {
      params: emailParams,
      body: { member_id: bobId },
    });
    expect(delegated.status).toBe(200);
    expect(delegated.body.email.delegate).toEqual({ member_id: bobId, name: 'Bob Delegate' });
    expect(await annLive.events(annFrom, 1)).toEqual([{ event: 'updateAccount', part: 'domains' }]);
    expect(await bobLive.events(bobFrom, 1)).toEqual([{ event: 'updateAccount', part: 'delegated' }]);

    const list = await api(bob.browser, 'delegatedEmails');
    expect(list.body.emails).toEqual([
      { email: email.email, owner: { member_id: annId, name: 'Ann Owner' }, since: expect.any(String) },
    ]);
    // Ann's sidebar lists the address; Bob's account names it among the addresses he may open.
    const annAccount = await api(ann.browser, 'account');
    expect(annAccount.body.aliases.map((a: { email: string }) => a.email)).toContain(email.email);
    expect((await api(bob.browser, 'account')).body.alias_accesses).toEqual([email.email]);
    // Bob's From list offers it (his own mail: the Sent copy is his).
    const senders = await senderAddressesOf(db, bob.accountId);
    expect(senders.map((s) => [s.email, s.aliasId])).toContainEqual([email.email, null]);

    const opened = await api(bob.browser, 'openDelegated', { body: { email: email.email.toUpperCase() } });
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      email: email.email,
      info: { alias: email.email, impersonator: { member_id: bobId, email: bob.email } },
    });
    expect(
      subjectsOf(await api(bob.browser, 'folderMessages', { params: { folder_id: ann.folders.inbox } })),
    ).toEqual(['Quote request']);
    // The owner's other mail is not there to be read.
    const privateId = (
      await db
        .selectFrom('messages')
        .select(['uid'])
        .where('account_id', '=', ann.accountId)
        .where('subject', '=', 'Private to Ann')
        .executeTakeFirstOrThrow()
    ).uid;
    const other = await api(bob.browser, 'message', {
      params: { folder_id: ann.folders.inbox, uid: privateId },
    });
    expect(other.status).toBe(404);
    expect(
      (await api(bob.browser, 'folderMessages', { params: { folder_id: bob.folders.inbox } })).status,
    ).toBe(404);
    // Sends as the address, and only as it.
    const sent = await api(bob.browser, 'sendMessage', {
      body: compose(email.email, [bob.email], { subject: 'Our quote' }),
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const asAnn = await api(bob.browser, 'sendMessage', { body: compose(ann.email, [bob.email]) });
    expect(asAnn.code).toBe('failed_validation_email_address');
    const sentCopy = await db
      .selectFrom('messages')
      .select(['alias_id', 'folder_id'])
      .where('account_id', '=', ann.accountId)
      .where('subject', '=', 'Our quote')
      .executeTakeFirstOrThrow();
    expect(sentCopy).toEqual({ alias_id: email.id, folder_id: ann.folders.sent });

    // The delegate cannot delegate further, nor manage the owner's settings.
    expect(
      (await api(bob.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: null } }))
        .status,
    ).toBe(403);
    expect((await api(bob.browser, 'aliases')).status).toBe(403);

    // Both auth logs have the opening.
    const annLog = await api(ann.browser, 'authLog');
    expect(annLog.body.entries[0]).toMatchObject({
      method: 'impersonation',
      success: true,
      address: email.email,
      member_id: bobId,
    });
    const back = await api(bob.browser, 'endImpersonation');
    expect(back.status).toBe(200);
    expect(back.body.email).toBe(bob.email);
    const bobLog = await api(bob.browser, 'authLog');
    // From his own session Bob sends as the address too: his own mail, in his own Sent.
    const own = await api(bob.browser, 'sendMessage', {
      body: compose(email.email, [ann.email], { subject: 'From Bob himself' }),
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    expect(own.body.message.folder_id).toBe(bob.folders.sent);
    const ownCopy = await db
      .selectFrom('messages')
      .select(['alias_id', 'account_id'])
      .where('subject', '=', 'From Bob himself')
      .where('folder_id', '=', bob.folders.sent)
      .executeTakeFirstOrThrow();
    expect(ownCopy).toEqual({ alias_id: null, account_id: bob.accountId });
    expect(
      bobLog.body.entries.map((e: { address: string; member_id: string }) => [e.address, e.member_id]),
    ).toContainEqual([email.email, annId]);
  });

  it('taking the delegation back moves the delegate’s session to their own mailbox: out of the address, still signed in', async () => {
    const { ann, bob, email, emailParams, bobId } = await setUp();
    await api(ann.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: bobId } });
    expect((await api(bob.browser, 'openDelegated', { body: { email: email.email } })).status).toBe(200);
    const live = await LiveClient.open(wsUrl, { token: bob.browser.cookies.get('mr_sid') });
    await live.greet();
    const revoked = await api(ann.browser, 'delegateDomainEmail', {
      params: emailParams,
      body: { member_id: null },
    });
    expect(revoked.body.email.delegate).toBeNull();
    // The socket that showed Ann's address closes at once: the tab learns its session changed.
    expect((await live.closedWithin(5000)).code).toBeGreaterThan(0);
    // The same cookie is Bob's own session now: Ann's mail is out of reach, his own is there.
    expect(
      (await api(bob.browser, 'folderMessages', { params: { folder_id: ann.folders.inbox } })).status,
    ).not.toBe(200);
    const access = await api(bob.browser, 'access');
    expect(access.status).toBe(200);
    expect(access.body.email).toBe(bob.email);
    expect(access.body.info.alias ?? null).toBeNull();
    expect(access.body.info.impersonator ?? null).toBeNull();
    expect(
      (await api(bob.browser, 'folderMessages', { params: { folder_id: bob.folders.inbox } })).status,
    ).toBe(200);
    expect((await api(bob.browser, 'delegatedEmails')).body.emails).toEqual([]);
  });

  it('refuses opening what is not delegated, and delegating to nobody or oneself', async () => {
    const { ann, bob, email, emailParams, annId, bobId } = await setUp();
    const refused = await api(bob.browser, 'openDelegated', { body: { email: email.email } });
    expect(refused.status).toBe(403);
    const annLog = await api(ann.browser, 'authLog');
    expect(annLog.body.entries[0]).toMatchObject({
      method: 'impersonation',
      success: false,
      member_id: bobId,
    });
    expect(
      (await api(ann.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: annId } }))
        .code,
    ).toBe('delegate_self');
    // An unknown member ID is a mistake in the form, not an ended session: 400, never 401 (the app signed in again).
    const unknown = await api(ann.browser, 'delegateDomainEmail', {
      params: emailParams,
      body: { member_id: '000000000001' },
    });
    expect([unknown.status, unknown.code]).toEqual([400, 'invalid_member_id2']);
    expect(
      (await api(ann.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: '12' } }))
        .code,
    ).toBe('invalid_member_id');
    // Bob, in his own session, reaching Ann's address by its ids.
    const byIds = await api(bob.browser, 'delegateDomainEmail', {
      params: emailParams,
      body: { member_id: bobId },
    });
    expect([byIds.status, byIds.code]).toEqual([404, 'entity_not_found']);
    // Replacing the delegate moves it: the old one loses it.
    const carl = await mailUser(ctx, 'Carl Third');
    await api(ann.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: bobId } });
    expect((await api(bob.browser, 'openDelegated', { body: { email: email.email } })).status).toBe(200);
    await api(ann.browser, 'delegateDomainEmail', {
      params: emailParams,
      body: { member_id: await memberIdOf(carl) },
    });
    expect(
      (await api(bob.browser, 'folderMessages', { params: { folder_id: ann.folders.inbox } })).status,
    ).not.toBe(200);
    expect((await api(bob.browser, 'access')).body.email).toBe(bob.email);
    expect((await api(carl.browser, 'delegatedEmails')).body.emails).toHaveLength(1);
  });

  it('removing the address ends its delegation; the delegate’s session goes back to their own mailbox', async () => {
    const { ann, bob, email, emailParams, domain, bobId } = await setUp();
    await api(ann.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: bobId } });
    expect((await api(bob.browser, 'openDelegated', { body: { email: email.email } })).status).toBe(200);
    expect(
      (await api(ann.browser, 'deleteDomainEmail', { params: { id: domain.id, emailId: email.id } })).status,
    ).toBe(200);
    expect(
      (await api(bob.browser, 'folderMessages', { params: { folder_id: ann.folders.inbox } })).status,
    ).not.toBe(200);
    expect((await api(bob.browser, 'access')).body.email).toBe(bob.email);
    expect((await api(bob.browser, 'delegatedEmails')).body.emails).toEqual([]);
    expect(await db.selectFrom('delegations').selectAll().where('alias_id', '=', email.id).execute()).toEqual(
      [],
    );
  });
});

describe('scopeOf: one function for every kind of address', () => {
  it('decides the primary address, an alias, a domain address and a delegated address alike', async () => {
    const { ann, bob, email, emailParams, bobId } = await setUp();
    const alias = await db
      .insertInto('aliases')
      .values({ account_id: ann.accountId, email: `desk-${ann.accountId}@mailroom.test` })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    const owner = { accountId: ann.accountId };
    expect(await scopeOf(db, { ...owner, aliasEmail: null })).toEqual({ kind: 'all' });
    expect(await scopeOf(db, { ...owner, aliasEmail: ann.email })).toEqual({
      kind: 'address',
      aliasId: null,
    });
    expect(await scopeOf(db, { ...owner, aliasEmail: alias.email })).toEqual({
      kind: 'address',
      aliasId: alias.id,
    });
    expect(await scopeOf(db, { ...owner, aliasEmail: email.email.toUpperCase() })).toEqual({
      kind: 'address',
      aliasId: email.id,
    });
    const delegatedSession = { ...owner, aliasEmail: email.email, actorAccountId: bob.accountId };
    expect(await scopeOf(db, delegatedSession)).toEqual({ kind: 'none' });
    await api(ann.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: bobId } });
    expect(await scopeOf(db, delegatedSession)).toEqual({ kind: 'address', aliasId: email.id });
    // Delegated to Bob, not to whoever else claims to act.
    const carl = await mailUser(ctx, 'Carl Claims');
    expect(await scopeOf(db, { ...delegatedSession, actorAccountId: carl.accountId })).toEqual({
      kind: 'none',
    });
    // Someone else's address is nothing, even named in a session of this account.
    expect(await scopeOf(db, { accountId: bob.accountId, aliasEmail: email.email })).toEqual({
      kind: 'none',
    });
    await api(ann.browser, 'delegateDomainEmail', { params: emailParams, body: { member_id: null } });
    expect(await scopeOf(db, delegatedSession)).toEqual({ kind: 'none' });
  });
});
