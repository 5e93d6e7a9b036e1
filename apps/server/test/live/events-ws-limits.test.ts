import type { Socket } from 'node:net';
import Fastify from 'fastify';
import cookie from '@fastify/cookie';
import { describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { cleanup, createTestDb, testConfig } from '../_util.js';
import { createAccount } from '../_mail.js';
import { LiveClient, listenWs } from '../_ws.js';
import { sessionPlugin } from '../../src/auth/session-plugin.js';
import { createSession, deleteSession } from '../../src/auth/sessions.js';
import { InProcessEventBus } from '../../src/core/events/index.js';
import { liveUpdates, type LiveUpdatesOptions } from '../../src/live/index.js';
import type { AppDeps } from '../../src/app.js';

/**
 * The hub alone, with timings short enough to watch the heartbeat, the session re-check and
 * the send buffer at work (the app registers it with minutes-long defaults).
 */
const db = await createTestDb();
const config = await testConfig();
const events = new InProcessEventBus();

async function startHub(options: LiveUpdatesOptions): Promise<string> {
  const app = Fastify({ logger: false });
  app.decorate('deps', { config, db, events } as unknown as AppDeps);
  await app.register(cookie);
  await app.register(sessionPlugin);
  await app.register(liveUpdates, options);
  cleanup(() => app.close());
  return listenWs(app);
}
const url = await startHub({ heartbeatMs: 100, sessionRecheckMs: 100, maxBufferedBytes: 64 * 1024 });
/** No heartbeat within a test's time: only the send buffer can drop a client here. */
const bufferOnlyUrl = await startHub({ heartbeatMs: 600_000, maxBufferedBytes: 64 * 1024 });

async function signedIn() {
  const account = await createAccount(db);
  const { token } = await createSession(db, { accountId: account.id, aliasEmail: null }, 3600_000);
  return { accountId: account.id, token };
}

describe('keeping /ws connections healthy', () => {
  it('keeps a client that answers pings, and drops one that stopped answering', async () => {
    const member = await signedIn();
    const healthy = await LiveClient.open(url, { token: member.token });
    const silent = await LiveClient.open(url, { token: member.token, autoPong: false });
    const { code } = await silent.closed;
    expect(code).toBe(1006); // terminated without a closing handshake
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
    expect(await healthy.greet()).toBe('connection opening');
  });

  it('closes the socket when its session is signed out', async () => {
    const member = await signedIn();
    const live = await LiveClient.open(url, { token: member.token });
    await live.greet();
    await deleteSession(db, member.token);
    expect(await live.closed).toEqual({ code: 1008, reason: 'session ended' });
    await expect.poll(() => events.accounts()).not.toContain(member.accountId);
  });

  it('closes the socket when its session expires, without waiting for a re-check', async () => {
    const account = await createAccount(db);
    const { token } = await createSession(db, { accountId: account.id, aliasEmail: null }, 400);
    // This hub re-checks sessions only every ten minutes.
    const live = await LiveClient.open(bufferOnlyUrl, { token });
    await live.greet();
    expect(await live.closedWithin(2000)).toEqual({ code: 1008, reason: 'session ended' });
  });

  it('drops a client that does not read instead of buffering without end', async () => {
    const member = await signedIn();
    const live = await LiveClient.open(bufferOnlyUrl, { token: member.token });
    await live.greet();
    // The client stops reading: kernel buffers fill, then the server's own queue grows.
    const clientSocket = (live.ws as unknown as { _socket: Socket })._socket;
    clientSocket.pause();
    const big: MailEvent = {
      event: 'new',
      folder_id: 1,
      uids: Array.from({ length: 5000 }, (_, i) => i + 1),
    };
    for (let i = 0; i < 2000 && events.accounts().includes(member.accountId); i++) {
      await events.publish(member.accountId, [big]);
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await expect.poll(() => events.accounts()).not.toContain(member.accountId);
    clientSocket.resume();
    await live.closed;
  });

  it('answers only the opening line and ignores anything else the client sends', async () => {
    const member = await signedIn();
    const live = await LiveClient.open(url, { token: member.token });
    live.ws.send('hello');
    live.ws.send(Buffer.from('connection opening'), { binary: true });
    expect(await live.greet()).toBe('connection opening');
    expect(live.frames).toHaveLength(1);
  });

  it('closes a client that sends an oversized frame', async () => {
    const member = await signedIn();
    const live = await LiveClient.open(url, { token: member.token });
    live.ws.send('x'.repeat(64 * 1024));
    expect((await live.closed).code).toBe(1009); // message too big
    await expect.poll(() => events.accounts()).not.toContain(member.accountId);
  });
});
