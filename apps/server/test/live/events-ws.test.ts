import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { cleanup, createTestApp, signUpAndSignIn } from '../_util.js';
import { composeRaw } from '../_mail.js';
import { LiveClient, listenWs, RefusedUpgrade } from '../_ws.js';
import { parseMessage, storeMessage, systemFolder } from '../../src/mailbox/index.js';
import { startIngestServer } from '../../src/delivery/index.js';
import { createSession } from '../../src/auth/index.js';
import { apiRequest } from '../_client.js';

const { app, db, blobs, events, config } = await createTestApp();
const url = await listenWs(app);

/** Signs a member up through the embedded IdP; returns the session token and the account id. */
async function member(name: string) {
  const { browser, memberId } = await signUpAndSignIn(app, name);
  const token = browser.cookies.get('mr_sid')!;
  const account = await db
    .selectFrom('accounts')
    .select(['id', 'email'])
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
  return { token, accountId: account.id, email: account.email, browser };
}

/** Delivers a message the way ingest does: store (committed), then publish what it returns. */
async function deliver(accountId: number, subject: string) {
  const raw = await composeRaw({ from: 'sender@example.com', to: 'x@mailroom.test', subject, text: 'hi' });
  const inbox = await systemFolder(db, accountId, 'inbox');
  const stored = await storeMessage(db, blobs, {
    accountId,
    folderId: inbox.id,
    raw,
    parsed: await parseMessage(raw),
  });
  const publishedAt = performance.now();
  await events.publish(accountId, stored.events);
  return { ...stored, inbox, publishedAt };
}

async function refusal(promise: Promise<unknown>): Promise<number> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RefusedUpgrade);
  return (err as RefusedUpgrade).status;
}

describe('the /ws live updates', () => {
  it('refuses a client without a session, or with an unknown one, before the upgrade', async () => {
    expect(await refusal(LiveClient.open(url))).toBe(401);
    expect(await refusal(LiveClient.open(url, { token: 'not-a-session' }))).toBe(401);
    expect(events.accounts()).toEqual([]);
  });

  it("refuses another site's page even with the member's cookie (cross-site websocket hijacking)", async () => {
    const ann = await member('Ann Lee');
    expect(await refusal(LiveClient.open(url, { token: ann.token, origin: 'https://evil.example' }))).toBe(
      403,
    );
    expect(await refusal(LiveClient.open(url, { token: ann.token, origin: 'null' }))).toBe(403);
    expect(events.accounts()).not.toContain(ann.accountId);
  });

  it("answers 'connection opening' and delivers the account's new message and Inbox counters", async () => {
    const ann = await member('Ann Lee');
    const live = await LiveClient.open(url, { token: ann.token });
    expect(await live.greet()).toBe('connection opening');

    const from = live.frames.length;
    const { message, inbox, publishedAt } = await deliver(ann.accountId, 'Привет');
    const received = await live.events(from, 2);
    expect(received).toEqual<MailEvent[]>([
      { event: 'new', folder_id: inbox.id, uids: [message.uid] },
      { event: 'updateMailbox', folder_id: inbox.id, unseen: 1, total: 1 },
    ]);
    const latencyMs = live.frames[from]!.at - publishedAt;
    console.log(`websocket latency publish → client: ${latencyMs.toFixed(2)} ms`);
    expect(latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('never sends an event to another account, with both members connected at once', async () => {
    const ann = await member('Ann Lee');
    const bo = await member('Bo Chen');
    const annLive = await LiveClient.open(url, { token: ann.token });
    const boLive = await LiveClient.open(url, { token: bo.token });
    const annTab2 = await LiveClient.open(url, { token: ann.token });
    await Promise.all([annLive.greet(), boLive.greet(), annTab2.greet()]);

    const toBo = await deliver(bo.accountId, 'for Bo');
    await boLive.events(1, 2);
    const toAnn = await deliver(ann.accountId, 'for Ann');
    await annLive.events(1, 2);
    await annTab2.events(1, 2);
    // Bo's events were published before Ann's: had any leaked, Ann would have got them first.
    expect(annLive.received()).toEqual(toAnn.events);
    expect(annTab2.received()).toEqual(toAnn.events);
    expect(boLive.received()).toEqual(toBo.events);
    expect(toAnn.inbox.id).not.toBe(toBo.inbox.id);
  });

  it('unsubscribes a client when it closes', async () => {
    const ann = await member('Ann Lee');
    const live = await LiveClient.open(url, { token: ann.token });
    await live.greet();
    expect(events.accounts()).toContain(ann.accountId);
    live.ws.close();
    await live.closed;
    await expect.poll(() => events.accounts()).not.toContain(ann.accountId);
  });

  it('closes the sockets of a session the moment it signs out, and sends them nothing after', async () => {
    const ann = await member('Ann Lee');
    const live = await LiveClient.open(url, { token: ann.token });
    const otherTab = await LiveClient.open(url, { token: ann.token });
    await Promise.all([live.greet(), otherTab.greet()]);
    const loggedOut = await apiRequest(ann.browser, 'logOut');
    expect(loggedOut.statusCode).toBe(200);
    // Well before the periodic session re-check (minutes): the sign-out itself ends the sockets.
    expect(await live.closedWithin(2000)).toEqual({ code: 1008, reason: 'session ended' });
    expect(await otherTab.closedWithin(2000)).toEqual({ code: 1008, reason: 'session ended' });
    await deliver(ann.accountId, 'after sign-out');
    expect(live.received()).toEqual([]);
    await expect.poll(() => events.accounts()).not.toContain(ann.accountId);
  });

  it("keeps another session's socket of the same account open when one session signs out", async () => {
    const ann = await member('Ann Lee');
    // Her second device: another session of the same account.
    const secondToken = (await createSession(db, { accountId: ann.accountId, aliasEmail: null }, 3600_000))
      .token;
    const first = await LiveClient.open(url, { token: ann.token });
    const second = await LiveClient.open(url, { token: secondToken });
    await Promise.all([first.greet(), second.greet()]);
    await apiRequest(ann.browser, 'logOut');
    expect((await first.closedWithin(2000)).code).toBe(1008);
    const from = second.frames.length;
    const { events: sent } = await deliver(ann.accountId, 'still here');
    expect(await second.events(from, sent.length)).toEqual(sent);
  });

  it('refuses a plain HTTP GET of /ws', async () => {
    const ann = await member('Ann Lee');
    const response = await ann.browser.get('/ws');
    expect(response.statusCode).toBe(404);
    const anonymous = await app.inject({ method: 'GET', url: '/ws' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: { meta: { i8s: 'expected_token' } } });
  });

  it('announces mail sent over SMTP to the Inbox of the recipient connected to /ws', async () => {
    const ann = await member('Ann Lee');
    const live = await LiveClient.open(url, { token: ann.token });
    await live.greet();
    const log = { info() {}, warn() {}, error() {}, debug() {} };
    const smtp = await startIngestServer({ config, db, blobs, events, log }, { port: 0, host: '127.0.0.1' });
    cleanup(() => smtp.close());
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, ignoreTLS: true });
    await transport.sendMail({ from: 'bo@example.com', to: ann.email, subject: 'Счёт', text: 'hi' });
    const acceptedAt = performance.now();
    const inbox = await systemFolder(db, ann.accountId, 'inbox');
    expect(await live.events(1, 2)).toEqual<MailEvent[]>([
      { event: 'new', folder_id: inbox.id, uids: [1] },
      { event: 'updateMailbox', folder_id: inbox.id, unseen: 1, total: 1 },
    ]);
    console.log(`websocket event after SMTP 250: ${(live.frames[1]!.at - acceptedAt).toFixed(2)} ms`);
  });
});
