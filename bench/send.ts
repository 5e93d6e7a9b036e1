/**
 * Sending (issue #5): the latency of POST messages/send to a local recipient (MIME with
 * MailComposer, parse, Sent copy, outbox row, delivery into the recipient's Inbox through the
 * inbound path: what the sender waits for), and the throughput of the outbox job relaying to an
 * SMTP sink on loopback (a second smtp-server standing in for the relay). In-process: the app
 * answers over inject, so the figures are server time without the browser's network.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/send.ts [--quick] [databaseUrl]
 */
import fs from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { PGlite } from '@electric-sql/pglite';
import { migrate, openDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { pgliteExtensions } from '../apps/server/src/core/db/pglite-open.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import { createSession, SESSION_COOKIE } from '../apps/server/src/auth/sessions.js';
import { appInvoicePurposes, buildApp } from '../apps/server/src/app.js';
import { openWalletGateway } from '../apps/server/src/wallet/index.js';
import { loadConfig } from '../apps/server/src/config.js';
import { generateSecrets } from '../apps/server/src/core/secrets.js';
import { openBlobStore } from '../apps/server/src/core/blobs/index.js';
import { InProcessEventBus } from '../apps/server/src/core/events/index.js';
import { startSendingJobs } from '../apps/server/src/sending/index.js';
import { closeParsePool } from '../apps/server/src/mailbox/index.js';
import type { BenchRow } from './types.js';

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

async function sink() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received++;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as net.AddressInfo).port,
    received: () => received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function member(db: Db, name: string) {
  const memberId = `8${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;
  const { account } = await ensureAccount(db, { memberId, name, mailDomain: 'mailroom.test' });
  const { token } = await createSession(db, { accountId: account.id, aliasEmail: null }, 3600_000);
  return { email: account.email, cookie: `${SESSION_COOKIE}=${token}` };
}

export async function runSendBench(opts: { databaseUrl?: string; quick: boolean }): Promise<BenchRow[]> {
  const db = opts.databaseUrl
    ? await openDatabase({ kind: 'postgres', url: opts.databaseUrl })
    : await openDatabase({
        kind: 'pglite-instance',
        pglite: await PGlite.create({ extensions: pgliteExtensions }),
      });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-send-'));
  const relay = await sink();
  try {
    await migrate(db);
    const config = loadConfig({
      DATA_DIR: dataDir,
      PUBLIC_URL: 'http://mailroom.localhost',
      LOG_LEVEL: 'silent',
      SMTP_RELAY_URL: `smtp://127.0.0.1:${relay.port}`,
      OUTBOX_POLL_MS: '20',
    });
    const events = new InProcessEventBus();
    const deps = {
      config,
      db,
      secrets: generateSecrets(),
      blobs: await openBlobStore(db, path.join(dataDir, 'blobs'), config.blobs.s3),
      events,
      wallet: openWalletGateway(config, db),
      invoicePurposes: appInvoicePurposes(events),
    };
    const app = await buildApp(deps, { logger: false });
    const [ann, bob] = [await member(db, 'Ann Lee'), await member(db, 'Bo Chen')];
    // ~20 KB of HTML, like the ingest benchmark's messages.
    const content = `<p>${'Lorem ipsum dolor sit amet, привет мир. '.repeat(480)}</p>`;
    const send = async (to: string, i: number) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/messages/send',
        headers: {
          host: 'mailroom.localhost',
          origin: 'http://mailroom.localhost',
          'x-mailroom-csrf': '1',
          cookie: ann.cookie,
          'content-type': 'application/json',
        },
        payload: JSON.stringify({
          subject: `Bench ${i} — проверка`,
          fields: { from: { email: ann.email, name: 'Ann Lee' }, to: [{ email: to, name: '' }] },
          content,
          content_type: 'text/html',
        }),
      });
      if (response.statusCode !== 200)
        throw new Error(`send failed: ${response.statusCode} ${response.body}`);
    };

    const count = opts.quick ? 60 : 300;
    for (let i = 0; i < 10; i++) await send(bob.email, i); // warm up
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const start = performance.now();
      await send(bob.email, i);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    process.stderr.write(`  sent ${count} locally, p50 ${quantile(times, 0.5).toFixed(1)} ms\n`);

    // Queue the remote mail first (no job running), then time the job draining it to the sink.
    const queued = opts.quick ? 200 : 1000;
    for (let i = 0; i < queued; i++) await send(`far${i}@example.com`, i);
    process.stderr.write(`  queued ${queued} for the relay\n`);
    const started = performance.now();
    const jobs = startSendingJobs({ ...deps, log: pino({ level: 'silent' }) });
    while (relay.received() < queued) {
      if (performance.now() - started > 300_000)
        throw new Error(`relay got ${relay.received()} of ${queued}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    const seconds = (performance.now() - started) / 1000;
    await jobs.stop();
    await app.close();

    const rows: BenchRow[] = [
      {
        name: 'send to a local recipient (POST messages/send), p50',
        value: quantile(times, 0.5),
        unit: 'ms',
        target: '— (new)',
        note: `${count} × 20 KB HTML; p95 ${quantile(times, 0.95).toFixed(1)} ms; Sent copy + Inbox delivery`,
      },
      {
        name: 'send to a local recipient (POST messages/send), p95',
        value: quantile(times, 0.95),
        unit: 'ms',
        target: '— (new)',
      },
      {
        name: 'outbox to an SMTP relay on loopback',
        value: queued / seconds,
        unit: 'messages/s',
        target: '— (new)',
        note: `${queued} queued messages of 20 KB, 4 pooled connections`,
      },
    ];
    return rows;
  } finally {
    // The parse workers would keep the process alive; the next parse starts a new pool.
    await closeParsePool();
    await relay.close();
    await db.destroy();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv.slice(2).find((a) => a.startsWith('postgres'));
  const rows = await runSendBench({
    ...(url ? { databaseUrl: url } : {}),
    quick: process.argv.includes('--quick'),
  });
  console.table(rows);
}
