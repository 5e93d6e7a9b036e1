import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { migrate, type Db } from '../../src/core/db/index.js';
import { openBlobStore } from '../../src/core/blobs/index.js';
import { queueOutgoing as queueMail } from '../../src/sending/outbox.js';
import { createAccount } from '../_mail.js';
import { startSink } from '../_sending.js';
import { cleanup } from '../_util.js';
import { freePort, waitForPort } from '../../../../test-support/ports.js';
import { exited, prepareDatabase, startServer } from '../_server.js';
import { apiPath } from '../_client.js';

/**
 * The real server (main.ts) as a child process on a database of its own, with an account, `outgoing` messages
 * queued in its outbox, and a slow relay sink. The database is closed again before the server starts (embedded
 * PGlite is one process's); `open` opens it once the server has stopped.
 */
async function setUp(extraEnv: Record<string, string> = {}, outgoing = 0) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-shutdown-'));
  cleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const database = await prepareDatabase(dataDir);
  const db = await database.open();
  await migrate(db);
  const account = await createAccount(db, 'Shutdown Test');
  await queueOutgoing(db, dataDir, account.id, outgoing);
  await db.destroy();
  const sink = await startSink({ delayMs: 700 });
  const httpPort = await freePort();
  const smtpPort = await freePort();
  const metricsPort = await freePort();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    SMTP_PORT: String(smtpPort),
    METRICS_PORT: String(metricsPort),
    SMTP_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    OUTBOX_POLL_MS: '200',
    LOG_LEVEL: 'error',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...extraEnv,
  };
  return {
    open: database.open,
    account,
    sink,
    httpPort,
    smtpPort,
    env,
    base: `http://127.0.0.1:${httpPort}`,
    /** The metrics listener's /metrics (METRICS_PORT, on loopback). */
    metrics: `http://127.0.0.1:${metricsPort}/metrics`,
  };
}

/** Outgoing mail waiting in the outbox, as a send leaves it: a stored blob and one queued remote row each. */
async function queueOutgoing(db: Db, dataDir: string, accountId: number, count: number) {
  const blobs = await openBlobStore(db, path.join(dataDir, 'blobs'));
  for (let i = 0; i < count; i++) {
    const raw = Buffer.from(
      `From: shutdown@mailroom.test\r\nTo: out${i}@example.org\r\nSubject: outgoing ${i}\r\n` +
        `Message-ID: <out-${i}-${randomBytes(4).toString('hex')}@mailroom.test>\r\n\r\nbody ${i}\r\n`,
    );
    const { hash, size } = await blobs.put(raw);
    await queueMail(db, [
      {
        account_id: accountId,
        blob_hash: hash,
        size,
        message_id: null,
        envelope_from: 'shutdown@mailroom.test',
        recipient: `out${i}@example.org`,
        local: false,
      },
    ]);
  }
}

/** An SMTP client driven a line at a time, to stop in the middle of DATA. */
function smtpClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  const replies: { code: number; text: string }[] = [];
  const waiters: (() => void)[] = [];
  let buffer = '';
  socket.on('data', (data) => {
    buffer += data.toString('latin1');
    let nl: number;
    while ((nl = buffer.indexOf('\r\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 2);
      if (line[3] !== '-') replies.push({ code: Number(line.slice(0, 3)), text: line.slice(4) });
      for (const w of waiters.splice(0)) w();
    }
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  let read = 0;
  /** The next reply, or null if the connection closed without one. */
  const reply = async (timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (replies.length <= read) {
      if (socket.destroyed || Date.now() > deadline) return null;
      await Promise.race([new Promise<void>((r) => waiters.push(r)), closed, sleep(200)]);
    }
    return replies[read++]!;
  };
  return { socket, reply, write: (text: string) => socket.write(text), closed };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The value of one series of /metrics (0 when absent). */
function metric(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-z_]+)(?:\{([^}]*)\})? ([-\d.e+]+|NaN)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
    );
    if (Object.entries(labels).every(([k, v]) => present[k] === v)) total += Number(match[3]);
  }
  return total;
}

describe('health', () => {
  it(
    'live and ready answer 200 on a working server, and /healthz is readiness',
    { timeout: 240_000 },
    async () => {
      const ctx = await setUp();
      const server = startServer(ctx.env);
      await waitForPort(ctx.httpPort, server);
      const live = await fetch(`${ctx.base}/healthz/live`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      // Ready once its database and blob store answer within the check's 2 s: right after the port opens, on a loaded
      // machine, the embedded database may still be busy with the first upkeep pass, as an orchestrator's probe allows.
      let ready = await fetch(`${ctx.base}/healthz/ready`);
      for (const until = Date.now() + 60_000; ready.status !== 200 && Date.now() < until;) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        ready = await fetch(`${ctx.base}/healthz/ready`);
      }
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ok' });
      expect((await fetch(`${ctx.base}/healthz`)).status).toBe(200);
      server.kill('SIGTERM');
      await exited(server);
      expect(server.exitCode).toBe(0);
    },
  );
});

describe('metrics', () => {
  it(
    'ingest, delivery, outbox, jobs and the pool move on /metrics after SMTP mail and an outbox send',
    { timeout: 240_000 },
    async () => {
      const ctx = await setUp({}, 2);
      const server = startServer(ctx.env);
      await waitForPort(ctx.smtpPort, server);
      await waitForPort(ctx.httpPort, server);
      const before = await (await fetch(ctx.metrics)).text();
      // Without METRICS_TOKEN the public port has no /metrics: they are on the metrics listener only.
      expect((await fetch(`${ctx.base}/metrics`)).status).toBe(404);

      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: ctx.smtpPort,
        ignoreTLS: true,
      });
      for (let i = 0; i < 3; i++)
        await transport.sendMail({
          from: 'a@example.org',
          to: ctx.account.email,
          subject: `m${i}`,
          text: 'hello',
        });
      await expect(
        transport.sendMail({ from: 'a@example.org', to: 'nobody@mailroom.test', subject: 'x', text: 'x' }),
      ).rejects.toThrow(/550/);
      transport.close();
      // The two queued messages go to the relay from the start (the process's counters began at 0 with it).
      let after = '';
      for (let i = 0; i < 100; i++) {
        after = await (await fetch(ctx.metrics)).text();
        if (metric(after, 'mailroom_outbox_attempts_total', { target: 'relay', outcome: 'sent' }) >= 2) break;
        await sleep(200);
      }
      const moved = (name: string, labels: Record<string, string> = {}) =>
        metric(after, name, labels) - metric(before, name, labels);
      expect(moved('mailroom_ingest_messages_received_total', { protocol: 'smtp' })).toBe(3);
      expect(moved('mailroom_ingest_messages_accepted_total', { protocol: 'smtp' })).toBe(3);
      expect(moved('mailroom_ingest_bytes_total', { protocol: 'smtp' })).toBeGreaterThan(3 * 100);
      expect(
        moved('mailroom_ingest_refused_total', {
          protocol: 'smtp',
          stage: 'rcpt',
          reason: 'unknown_recipient',
        }),
      ).toBe(1);
      expect(
        moved('mailroom_ingest_store_duration_seconds_count', { protocol: 'smtp', result: 'accepted' }),
      ).toBe(3);
      expect(moved('mailroom_delivery_recipients_total', { outcome: 'stored' })).toBe(3);
      expect(metric(after, 'mailroom_outbox_attempts_total', { target: 'relay', outcome: 'sent' })).toBe(2);
      expect(metric(after, 'mailroom_outbox_attempt_duration_seconds_count', { target: 'relay' })).toBe(2);
      expect(ctx.sink.messages).toHaveLength(2);
      expect(metric(after, 'mailroom_outbox_queued', { target: 'relay' })).toBe(0);
      // The outbox's first run may start before the `before` scrape (it runs at start), so count from 0.
      expect(metric(after, 'mailroom_job_runs_total', { job: 'outbox' })).toBeGreaterThan(0);
      expect(metric(after, 'mailroom_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      expect(metric(after, 'mailroom_db_pool_connections', { state: 'max' })).toBeGreaterThan(0);
      expect(after).toMatch(/^mailroom_websocket_clients 0$/m);
      expect(after).not.toContain(ctx.account.email);

      server.kill('SIGTERM');
      await exited(server);
    },
  );
});

describe('graceful shutdown', () => {
  it(
    'SIGTERM: ready says 503 first, a message in DATA is answered (250 and stored, or 4xx), a request in flight completes, claimed outbox rows are given back',
    { timeout: 180_000 },
    async () => {
      const ctx = await setUp({ SHUTDOWN_DELAY_SECONDS: '1.5', SHUTDOWN_TIMEOUT_SECONDS: '20' }, 40);
      const server = startServer(ctx.env);
      await waitForPort(ctx.smtpPort, server);
      await waitForPort(ctx.httpPort, server);

      // A session that has begun its message.
      const smtp = smtpClient(ctx.smtpPort);
      expect((await smtp.reply())?.code).toBe(220);
      smtp.write('EHLO client.example.org\r\n');
      expect((await smtp.reply())?.code).toBe(250);
      smtp.write('MAIL FROM:<sender@example.org>\r\n');
      expect((await smtp.reply())?.code).toBe(250);
      smtp.write(`RCPT TO:<${ctx.account.email}>\r\n`);
      expect((await smtp.reply())?.code).toBe(250);
      smtp.write('DATA\r\n');
      expect((await smtp.reply())?.code).toBe(354);
      smtp.write('From: sender@example.org\r\nSubject: in flight at SIGTERM\r\n\r\nfirst half\r\n');

      // A request whose body is half sent; what the same request gets from a server that is not stopping.
      const body = JSON.stringify({ email: 'nobody@mailroom.test', password: 'whatever-password' });
      const post = (onRequest: (req: http.ClientRequest) => void) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = http.request(
            `${ctx.base}${apiPath('passwordSignIn')}`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
            },
            (res) => {
              let text = '';
              res.on('data', (d: Buffer) => (text += d.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
            },
          );
          req.on('error', reject);
          onRequest(req);
        });
      const usual = await post((req) => req.end(body));
      expect(usual.status).toBeLessThan(500);
      let finishRequest!: () => void;
      const inFlight = post((req) => {
        req.write(body.slice(0, 10));
        finishRequest = () => req.end(body.slice(10));
      });

      // The outbox is working through its claimed rows (the relay answers each after 700 ms).
      await ctx.sink.waitFor(2, 30_000);
      server.kill('SIGTERM');
      await sleep(300);
      // Not ready any more, still alive and serving, during SHUTDOWN_DELAY_SECONDS.
      const ready = await fetch(`${ctx.base}/healthz/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'shutting_down' });
      expect((await fetch(`${ctx.base}/healthz/live`)).status).toBe(200);
      await sleep(1800);

      // Past the delay the listeners are closed: no new SMTP session, no new connection.
      expect(await canConnect(ctx.smtpPort)).toBe(false);
      // The message and the request in hand finish.
      smtp.write('second half\r\n.\r\n');
      const answer = await smtp.reply();
      finishRequest();
      const completed = await inFlight;
      expect(completed).toEqual(usual);
      await exited(server);
      expect(server.exitCode).toBe(0);

      expect(answer).not.toBeNull();
      const db = await ctx.open();
      cleanup(() => db.destroy());
      const stored = await db
        .selectFrom('messages')
        .select('subject')
        .where('account_id', '=', ctx.account.id)
        .execute();
      if (answer!.code === 250) expect(stored.map((m) => m.subject)).toEqual(['in flight at SIGTERM']);
      else {
        expect(answer!.code).toBeGreaterThanOrEqual(400);
        expect(answer!.code).toBeLessThan(500);
      }
      // A session that waited is cut with 421 rather than left hanging.
      await smtp.closed;

      // Every row was sent once, or is queued with no lease (due now, its claim not counted): another node takes it at once.
      const rows = await db
        .selectFrom('outbox')
        .leftJoin('jobs', (join) =>
          join.on('jobs.kind', 'like', 'outbox-%').on(sql`jobs.key`, '=', sql`outbox.id::text`),
        )
        .select([
          'outbox.id',
          'outbox.status',
          'outbox.attempts',
          'outbox.recipient',
          sql<boolean>`jobs.run_at <= now() and jobs.attempts = 0`.as('due'),
        ])
        .execute();
      const sent = rows.filter((r) => r.status === 'sent');
      const queued = rows.filter((r) => r.status === 'queued');
      expect(sent.length + queued.length).toBe(40);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(queued.length).toBeGreaterThan(0);
      for (const row of queued) expect(row, `outbox row ${row.id}`).toMatchObject({ attempts: 0, due: true });
      const delivered = ctx.sink.messages.flatMap((m) => m.to).sort();
      expect(delivered).toEqual(sent.map((r) => r.recipient).sort());
    },
  );
});

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
