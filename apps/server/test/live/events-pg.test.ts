import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type {
  Collector,
  ContactImportResponse,
  MailImport,
  FilterRun,
  MailEvent,
  MailEventName,
} from '@mailroom/protocol';

/** The protocol's event kinds, spelled out: the compiler holds this list complete (`satisfies Record`). */
const eventNames = Object.keys({
  new: 1,
  store: 1,
  move: 1,
  updateMailbox: 1,
  updateMailboxList: 1,
  filterRun: 1,
  contactImport: 1,
  mailImport: 1,
  collector: 1,
  scheduledSend: 1,
  updateAccount: 1,
} satisfies Record<MailEventName, 1>);
import { cleanup, freshPostgresDatabase, signUpAndSignIn, testConfig } from '../_util.js';
import { LiveClient, listenWs } from '../_ws.js';
import { appInvoicePurposes, buildApp } from '../../src/app.js';
import { openWalletGateway } from '../../src/wallet/index.js';
import { generateSecrets } from '../../src/core/secrets.js';
import { openBlobStore } from '../../src/core/blobs/index.js';
import { PgEventBus, splitForNotify } from '../../src/core/events/index.js';
import { apiRequest } from '../_client.js';

const serverUrl = process.env.DATABASE_URL;

/** A fresh database on the DATABASE_URL server, shared by the "processes" of one test. */
const freshDatabase = () => freshPostgresDatabase(serverUrl!);

async function bus(url: string): Promise<PgEventBus> {
  const b = await PgEventBus.connect({ connectionString: url, reconnectMinMs: 50 });
  cleanup(() => b.close());
  return b;
}

/** Collects what a subscriber receives, and resolves once `count` events are in. */
function collect(b: PgEventBus, accountId: number) {
  const got: MailEvent[] = [];
  let wake = () => {};
  b.subscribe(accountId, (e) => {
    got.push(e);
    wake();
  });
  return {
    got,
    async wait(count: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (got.length < count) {
        if (Date.now() > deadline) throw new Error(`got ${got.length} of ${count} events`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return got;
    },
  };
}

describe('splitting events for NOTIFY', () => {
  it('keeps small events whole and cuts a long uid list into parts that each fit', () => {
    const small: MailEvent = { event: 'store', folder_id: 3, uids: [1, 2, 3] };
    expect(splitForNotify(small)).toEqual([small]);
    const uids = Array.from({ length: 20_000 }, (_, i) => 1_000_000_000 + i);
    const parts = splitForNotify({ event: 'move', folder_id: 3, to_folder_id: null, uids });
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(JSON.stringify(part).length).toBeLessThan(7300);
      expect(part).toMatchObject({ event: 'move', folder_id: 3, to_folder_id: null });
    }
    expect(parts.flatMap((p) => ('uids' in p ? p.uids : []))).toEqual(uids);
  });
});

describe.skipIf(!serverUrl)('events across server processes on one PostgreSQL', () => {
  it("delivers one process's event to another's subscriber of that account only, once", async () => {
    const { url } = await freshDatabase();
    const [one, two] = [await bus(url), await bus(url)];
    const annOnTwo = collect(two, 1);
    const annOnOne = collect(one, 1);
    const boOnTwo = collect(two, 2);
    const event: MailEvent = { event: 'updateMailbox', folder_id: 7, unseen: 2, total: 5 };
    await one.publish(1, [event]);
    expect(await annOnTwo.wait(1)).toEqual([event]);
    // The publisher's own subscriber gets it at once, and not a second time from the echo.
    await one.publish(1, [{ event: 'updateMailboxList' }]);
    await annOnTwo.wait(2);
    expect(annOnOne.got).toEqual([event, { event: 'updateMailboxList' }]);
    expect(boOnTwo.got).toEqual([]);
  });

  it("carries every kind of event to another process: a collector's progress, a filter run, a held send too", async () => {
    const { url } = await freshDatabase();
    const [one, two] = [await bus(url), await bus(url)];
    const onTwo = collect(two, 1);
    const collector = { id: 4, email: 'ivan@remote.test', state: 'importing' } as unknown as Collector;
    const filterRun = { id: 9, state: 'running' } as unknown as FilterRun;
    const contactImport = { id: 5, state: 'running' } as unknown as ContactImportResponse;
    const mailImport = { id: 6, state: 'running' } as unknown as MailImport;
    const events: MailEvent[] = [
      { event: 'new', folder_id: 1, uids: [1] },
      { event: 'store', folder_id: 1, uids: [1] },
      { event: 'move', folder_id: 1, to_folder_id: 2, uids: [1] },
      { event: 'updateMailbox', folder_id: 1, unseen: 0, total: 1 },
      { event: 'updateMailboxList' },
      { event: 'filterRun', run: filterRun },
      { event: 'contactImport', import: contactImport },
      { event: 'mailImport', import: mailImport },
      { event: 'collector', collector },
      { event: 'scheduledSend', id: 12, state: 'cancelled' },
      { event: 'updateAccount', part: 'collectors' },
    ];
    // Every kind the protocol has is here, so a new one fails this test until the bus carries it.
    expect(new Set(events.map((e) => e.event)).size).toBe(eventNames.length);
    await one.publish(1, events);
    expect(await onTwo.wait(events.length)).toEqual(events);
  });

  it('carries a uid list larger than a notification can hold, in parts, in order', async () => {
    const { url } = await freshDatabase();
    const [one, two] = [await bus(url), await bus(url)];
    const sub = collect(two, 9);
    const uids = Array.from({ length: 10_000 }, (_, i) => i + 1);
    await one.publish(9, [
      { event: 'new', folder_id: 4, uids },
      { event: 'updateMailbox', folder_id: 4, unseen: 10_000, total: 10_000 },
    ]);
    const parts = splitForNotify({ event: 'new', folder_id: 4, uids });
    const got = await sub.wait(parts.length + 1);
    expect(got).toHaveLength(parts.length + 1);
    expect(got.slice(0, -1).flatMap((e) => ('uids' in e ? e.uids : []))).toEqual(uids);
    expect(got.at(-1)).toEqual({ event: 'updateMailbox', folder_id: 4, unseen: 10_000, total: 10_000 });
  });

  it('events published at the same time all arrive in publishing order, equal ones too', async () => {
    const { url } = await freshDatabase();
    const [one, two] = [await bus(url), await bus(url)];
    const sub = collect(two, 5);
    const counts = (unseen: number): MailEvent => ({
      event: 'updateMailbox',
      folder_id: 2,
      unseen,
      total: 9,
    });
    // Published without waiting, as concurrent deliveries do: they leave together.
    const sent = [counts(5), counts(6), counts(5), { event: 'new', folder_id: 2, uids: [8] } as MailEvent];
    await Promise.all(sent.map((event) => one.publish(5, [event])));
    expect(await sub.wait(sent.length)).toEqual(sent);
  });

  it('listens again after its connection is killed, and tells its clients to reload', async () => {
    const { url } = await freshDatabase();
    const [one, two] = [await bus(url), await bus(url)];
    const sub = collect(two, 5);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    cleanup(() => admin.end());
    const killed = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query like 'LISTEN%' and pid <> pg_backend_pid()`,
    );
    expect(killed.rowCount).toBe(2);
    await expect.poll(() => two.listening, { timeout: 5000 }).toBe(false);
    await expect.poll(() => two.listening, { timeout: 5000 }).toBe(true);
    expect(await sub.wait(1)).toEqual([{ event: 'updateMailboxList' }]);
    await one.publish(5, [{ event: 'store', folder_id: 1, uids: [3] }]);
    expect((await sub.wait(2))[1]).toEqual({ event: 'store', folder_id: 1, uids: [3] });
  });

  it('two app instances: a member connected to one gets what the other publishes', async () => {
    const { url, db } = await freshDatabase();
    const secrets = generateSecrets();
    const start = async () => {
      const config = await testConfig({ DATABASE_URL: url });
      const events = await bus(url);
      const blobs = await openBlobStore(db, path.join(config.dataDir, 'blobs'), config.blobs.s3);
      const app = await buildApp(
        {
          config,
          db,
          secrets,
          blobs,
          events,
          wallet: openWalletGateway(config, db),
          invoicePurposes: appInvoicePurposes(events),
        },
        { logger: false },
      );
      cleanup(() => app.close());
      return { app, events, wsUrl: await listenWs(app) };
    };
    const [a, b] = [await start(), await start()];
    const ann = await signUpAndSignIn(a.app, 'Ann Lee');
    const bo = await signUpAndSignIn(a.app, 'Bo Chen');
    const accountOf = async (memberId: string) =>
      (
        await db
          .selectFrom('accounts')
          .select('id')
          .where('member_id', '=', memberId)
          .executeTakeFirstOrThrow()
      ).id;
    const [annId, boId] = [await accountOf(ann.memberId), await accountOf(bo.memberId)];
    const annLive = await LiveClient.open(b.wsUrl, { token: ann.browser.cookies.get('mr_sid')! });
    const boLive = await LiveClient.open(b.wsUrl, { token: bo.browser.cookies.get('mr_sid')! });
    await Promise.all([annLive.greet(), boLive.greet()]);

    const latencies: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const from = annLive.frames.length;
      const sentAt = performance.now();
      await a.events.publish(annId, [{ event: 'new', folder_id: 1, uids: [i] }]);
      latencies.push((await annLive.next(from)).at - sentAt);
    }
    await a.events.publish(boId, [{ event: 'updateMailboxList' }]);
    await boLive.next(1);
    expect(annLive.received()).toHaveLength(20);
    expect(boLive.received()).toEqual([{ event: 'updateMailboxList' }]);
    latencies.sort((x, y) => x - y);
    console.log(
      `cross-process websocket latency over NOTIFY: p50 ${latencies[10]!.toFixed(2)} ms, max ${latencies.at(-1)!.toFixed(2)} ms`,
    );
  });

  it("closes a session's socket on another process when the session signs out", async () => {
    const { url, db } = await freshDatabase();
    const secrets = generateSecrets();
    const start = async () => {
      const config = await testConfig({ DATABASE_URL: url });
      const events = await bus(url);
      const blobs = await openBlobStore(db, path.join(config.dataDir, 'blobs'), config.blobs.s3);
      const app = await buildApp(
        {
          config,
          db,
          secrets,
          blobs,
          events,
          wallet: openWalletGateway(config, db),
          invoicePurposes: appInvoicePurposes(events),
        },
        { logger: false },
      );
      cleanup(() => app.close());
      return { app, events, wsUrl: await listenWs(app) };
    };
    const [a, b] = [await start(), await start()];
    const ann = await signUpAndSignIn(a.app, 'Ann Lee');
    const annId = (
      await db
        .selectFrom('accounts')
        .select('id')
        .where('member_id', '=', ann.memberId)
        .executeTakeFirstOrThrow()
    ).id;
    const onB = await LiveClient.open(b.wsUrl, { token: ann.browser.cookies.get('mr_sid')! });
    await onB.greet();
    expect((await apiRequest(ann.browser, 'logOut')).statusCode).toBe(200);
    expect(await onB.closedWithin(3000)).toEqual({ code: 1008, reason: 'session ended' });
    await a.events.publish(annId, [{ event: 'updateMailboxList' }]);
    expect(onB.received()).toEqual([]);
  });
});
