/**
 * SMTP ingest throughput (DESIGN.md §5: 20 KB messages, end to end to a committed row,
 * ≥ 300 messages/s on PostgreSQL; server memory under ingest ≤ 400 MB RSS).
 *
 * The real server (apps/server/dist/main.js, what `npm start` runs; see server-process.ts) runs
 * as a child process on a fresh data folder; nodemailer sends `count` distinct ~20 KB
 * messages (text and a small attachment) over 16 pooled connections, spread over 50 mailboxes as
 * an MX sees them, then `count / 2` more to one single mailbox. A message counts when its 250
 * arrives, which the server sends only after blobs are fsynced and rows committed. One
 * mailbox is slower by design: a folder's UIDs are handed out in commit order (the folder row
 * is locked from UID allocation to commit), so its deliveries are serialised. The
 * server's RSS (main thread, parse workers and, with PGlite, the embedded database) is sampled
 * from /proc while it ingests, and its high-water mark (VmHWM) read at the end catches what the
 * sampling misses.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/ingest.ts [count] [databaseUrl]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { sql } from 'kysely';
import { migrate, openDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import type { BenchRow } from './types.js';
import { cpuSecondsOf, memoryOf, startServer } from './server-process.js';

const CONNECTIONS = 16;
const WARM_UP = 40;
const MAILBOXES = 50;

/**
 * A distinct message of about 20 KB: ~12 KB of text and a 4 KB attachment (5.5 KB in base64), from one of 50
 * senders at `senderDomain`.
 */
export function message(i: number, to: string, senderDomain = 'example.org'): Promise<Buffer> {
  const words = ['invoice', 'meeting', 'report', 'schedule', 'delivery', 'payment', 'отчёт', 'счёт'];
  const text = Array.from({ length: 1400 }, (_, w) => words[(i * 7 + w) % words.length]).join(' ');
  return new MailComposer({
    from: `Sender ${i % 50} <sender${i % 50}@${senderDomain}>`,
    to,
    subject: `Bench message ${i} — отчёт`,
    text,
    attachments: [{ filename: `data-${i}.bin`, content: randomBytes(4 * 1024) }],
  })
    .compile()
    .build();
}

export async function runIngestBench(opts: { databaseUrl?: string; count?: number }): Promise<BenchRow[]> {
  const count = opts.count ?? 2000;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-ingest-'));
  const openDb = (): Promise<Db> =>
    opts.databaseUrl
      ? openDatabase({ kind: 'postgres', url: opts.databaseUrl })
      : openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  // Accounts are made before the server starts: an embedded PGlite has one owner at a time.
  let db = await openDb();
  await migrate(db);
  const accounts: { email: string }[] = [];
  for (let i = 0; i < MAILBOXES; i++) {
    const memberId = String(900_000_000_100 + i);
    accounts.push(
      (await ensureAccount(db, { memberId, name: `Bench ${i}`, mailDomain: 'mailroom.test' })).account,
    );
  }
  await db.destroy();

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    server = await startServer({ dataDir, ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}) });
    const { pid, smtpPort } = server;
    const single = Math.ceil(count / 2);
    const total = WARM_UP + count + single;
    const recipient = (i: number) => accounts[i < WARM_UP + count ? i % MAILBOXES : 0]!.email;
    const raws = await Promise.all(Array.from({ length: total }, (_, i) => message(i, recipient(i))));
    const size = raws.reduce((a, r) => a + r.length, 0) / raws.length;
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      ignoreTLS: true,
      pool: true,
      maxConnections: CONNECTIONS,
      maxMessages: Infinity,
    });
    const send = (raw: Buffer, i: number) =>
      transport.sendMail({ envelope: { from: 'sender@example.org', to: [recipient(i)] }, raw });
    const sendRange = async (from: number, to: number) => {
      const started = performance.now();
      await Promise.all(raws.slice(from, to).map((raw, k) => send(raw, from + k)));
      return (to - from) / ((performance.now() - started) / 1000);
    };
    // Warm-up: connections, parse workers, query plans.
    await sendRange(0, WARM_UP);

    const idleRss = (await memoryOf(pid)).rss;
    let peakRss = idleRss;
    const sampler = setInterval(
      () => void memoryOf(pid).then((m) => (peakRss = Math.max(peakRss, m.rss))),
      50,
    );
    const cpuBefore = await cpuSecondsOf(pid);
    const rate = await sendRange(WARM_UP, WARM_UP + count);
    const cpuPerMessage = ((await cpuSecondsOf(pid)) - cpuBefore) / count;
    const singleRate = await sendRange(WARM_UP + count, total);
    clearInterval(sampler);
    peakRss = Math.max(peakRss, (await memoryOf(pid)).peak);
    transport.close();
    await server.stop();

    db = await openDb();
    const stored = await sql<{ n: number }>`select count(*)::int as n from messages`.execute(db);
    await db.destroy();
    if (stored.rows[0]!.n !== total) throw new Error(`stored ${stored.rows[0]!.n} of ${total} messages`);
    return [
      {
        name: 'SMTP ingest, 20 KB messages, to a committed row',
        value: rate,
        unit: 'messages/s',
        target: '≥ 300 messages/s (PostgreSQL)',
        ...(opts.databaseUrl ? { ok: rate >= 300 } : {}),
        note:
          `${count} × ${(size / 1024).toFixed(1)} KB to ${MAILBOXES} mailboxes over ${CONNECTIONS} connections; ` +
          `server CPU ${(cpuPerMessage * 1000).toFixed(1)} ms/message`,
      },
      {
        name: 'SMTP ingest into one single mailbox',
        value: singleRate,
        unit: 'messages/s',
        target: '— (UIDs in commit order serialise one folder)',
        note: `${single} messages`,
      },
      {
        name: 'server memory under the ingest benchmark (RSS)',
        value: peakRss / 1024 / 1024,
        unit: 'MB',
        target: '≤ 400 MB',
        ok: peakRss <= 400 * 1024 * 1024,
        note: `${(idleRss / 1024 / 1024).toFixed(0)} MB after start-up and a ${WARM_UP}-message warm-up`,
      },
    ];
  } finally {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 500);
  const rows = await runIngestBench({ count, ...(process.argv[3] ? { databaseUrl: process.argv[3] } : {}) });
  for (const r of rows)
    console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit} (target ${r.target}; ${r.note})`);
}
