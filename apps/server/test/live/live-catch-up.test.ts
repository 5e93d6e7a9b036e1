import { describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { createTestApp, signUpAndSignIn } from '../_util.js';
import { composeRaw } from '../_mail.js';
import { LiveClient, listenWs } from '../_ws.js';
import { parseMessage, storeMessage, systemFolder } from '../../src/mailbox/index.js';
import { RecentEvents, RECENT_EVENTS_MS } from '../../src/core/events/recent-events.js';
import { apiRequest } from '../_client.js';

const { app, db, blobs, events } = await createTestApp();
const url = await listenWs(app);

async function member(name: string) {
  const { browser, memberId } = await signUpAndSignIn(app, name);
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
  const inbox = await systemFolder(db, account.id, 'inbox');
  return { browser, token: browser.cookies.get('mr_sid')!, accountId: account.id, inbox };
}

async function deliver(accountId: number, folderId: number, subject: string) {
  const raw = await composeRaw({ from: 'sender@example.com', to: 'x@mailroom.test', subject, text: 'hi' });
  const stored = await storeMessage(db, blobs, { accountId, folderId, raw, parsed: await parseMessage(raw) });
  await events.publish(accountId, stored.events);
  return newUids(stored.events)[0];
}

/** Frames after `from` until one that is a sync frame, parsed. */
async function framesUntilSync(client: LiveClient, from = 0) {
  const frames: (MailEvent | { sync: string; at?: number })[] = [];
  for (let i = from; ; i++) {
    const frame = JSON.parse((await client.next(i)).data) as MailEvent | { sync: string; at?: number };
    frames.push(frame);
    if ('sync' in frame) return frames;
  }
}

const newUids = (frames: unknown[]) =>
  frames.flatMap((f) => ((f as MailEvent).event === 'new' ? (f as { uids: number[] }).uids : []));

describe('a websocket opened after the page read its data catches up instead of the page reading it again', () => {
  it('every API answer says when the server began it', async () => {
    const ann = await member('Clock Reader');
    const before = Date.now();
    const response = await apiRequest(ann.browser, 'folders');
    const clock = Number(response.headers['x-mailroom-clock']);
    expect(clock).toBeGreaterThanOrEqual(before);
    expect(clock).toBeLessThanOrEqual(Date.now());
  });

  it('mail that arrived between reading the list and opening the socket is replayed, then caught_up', async () => {
    const bo = await member('Bo Catch');
    await deliver(bo.accountId, bo.inbox.id, 'before the list');
    const list = await apiRequest(bo.browser, 'folderMessages', {
      params: { folder_id: bo.inbox.id },
      query: { page: 1 },
    });
    const since = Number(list.headers['x-mailroom-clock']);
    await new Promise((r) => setTimeout(r, 1_100)); // past the margin, so only what follows counts
    const missed = await deliver(bo.accountId, bo.inbox.id, 'while the socket was not open');
    const client = await LiveClient.open(`${url}?since=${since + 1_100}`, { token: bo.token });
    const frames = await framesUntilSync(client);
    expect(newUids(frames)).toEqual([missed]);
    const sync = frames.at(-1) as { sync: string; at: number };
    expect(sync.sync).toBe('caught_up');
    expect(sync.at).toBeGreaterThan(since);
    // Live from then on.
    const later = await deliver(bo.accountId, bo.inbox.id, 'live');
    const next = JSON.parse((await client.next(frames.length)).data) as MailEvent;
    expect(newUids([next])).toEqual([later]);
  });

  it('data read after the socket opened but begun before it subscribed: {"since"} replays only that span', async () => {
    const cy = await member('Cy Late');
    const client = await LiveClient.open(`${url}?since=${Date.now()}`, { token: cy.token });
    const [sync] = (await framesUntilSync(client)) as { sync: string; at: number }[];
    const live = await deliver(cy.accountId, cy.inbox.id, 'after subscribing');
    const liveFrame = JSON.parse((await client.next(1)).data) as MailEvent;
    expect(newUids([liveFrame])).toEqual([live]);
    client.ws.send(JSON.stringify({ since: sync!.at - 200 }));
    const replay = await framesUntilSync(client, 2);
    // The live event is not sent twice: the span ends where the subscription began.
    expect(newUids(replay)).toEqual([]);
    expect(replay.at(-1)).toEqual({ sync: 'caught_up', at: sync!.at });
  });

  it('says gap when it cannot vouch for the span: too long ago, or a since it cannot read', async () => {
    const di = await member('Di Gap');
    const old = await LiveClient.open(`${url}?since=${Date.now() - RECENT_EVENTS_MS - 5_000}`, {
      token: di.token,
    });
    expect(JSON.parse((await old.next(0)).data)).toEqual({ sync: 'gap' });
    const garbage = await LiveClient.open(`${url}?since=yesterday`, { token: di.token });
    expect(JSON.parse((await garbage.next(0)).data)).toEqual({ sync: 'gap' });
  });

  it("replays another account's mail to no one", async () => {
    const [ed, fay] = [await member('Ed Own'), await member('Fay Other')];
    const since = Date.now() + 1_100;
    await new Promise((r) => setTimeout(r, 1_100));
    await deliver(fay.accountId, fay.inbox.id, 'not for Ed');
    const client = await LiveClient.open(`${url}?since=${since}`, { token: ed.token });
    const frames = await framesUntilSync(client);
    expect(frames).toEqual([expect.objectContaining({ sync: 'caught_up' })]);
  });
});

describe('RecentEvents', () => {
  const event: MailEvent = { event: 'updateMailboxList' };
  it('keeps a minute, forgets what a lost listener may have missed, and says so', () => {
    let now = 1_000_000;
    const recent = new RecentEvents(() => now);
    recent.record(1, event);
    now += 10;
    recent.record(2, event);
    expect(recent.since(1, 1_000_000)).toEqual([event]);
    expect(recent.since(1, 999_999)).toBeNull(); // before it started
    now += RECENT_EVENTS_MS;
    expect(recent.since(1, 1_000_000)).toBeNull(); // dropped with age
    recent.forgetBefore(now);
    expect(recent.since(2, now - 1)).toBeNull();
    expect(recent.since(2, now)).toEqual([]);
  });
});
