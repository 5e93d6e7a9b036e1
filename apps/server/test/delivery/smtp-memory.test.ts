import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { migrate } from '../../src/core/db/index.js';
import { createAccount } from '../_mail.js';
import { cleanup } from '../_util.js';
import { freePort, waitForPort } from '../../../../test-support/ports.js';
import { exited, prepareDatabase, startServer } from '../_server.js';
import { serveCommand } from '../../../../test-support/serve-command.js';

const MB = 1024 * 1024;

/** The resident memory of a process, from /proc (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

/** Samples a process's RSS every 50 ms until stopped; the highest value seen. */
function watchPeak(pid: number) {
  let peak = 0;
  const sample = () =>
    rssOf(pid).then(
      (rss) => (peak = Math.max(peak, rss)),
      () => undefined,
    );
  const timer = setInterval(() => void sample(), 50);
  return {
    async stop() {
      clearInterval(timer);
      await sample();
      return peak;
    },
  };
}

/** The server in a child process with `count` accounts; stops it when the test ends. */
async function serverWithAccounts(count: number, scripts: string[] = []) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-memory-'));
  cleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const database = await prepareDatabase(dataDir);
  let db = await database.open();
  await migrate(db);
  const accounts = [];
  for (let i = 0; i < count; i++) accounts.push(await createAccount(db, `Memory ${i}`));
  // The filters of the first accounts, one script each.
  for (const [i, script] of scripts.entries())
    await db
      .insertInto('filter_scripts')
      .values({ account_id: accounts[i]!.id, script, version: 1 })
      .execute();
  await db.destroy();
  const [smtpPort, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const server = startServer({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    SMTP_PORT: String(smtpPort),
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: 'error',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
  });
  await waitForPort(smtpPort, server);
  return {
    server,
    smtpPort,
    httpPort,
    metricsPort,
    accounts,
    dataDir,
    /** Stops the server (PGlite allows one process) and opens its database. */
    async stopAndOpen() {
      server.kill('SIGTERM');
      await exited(server);
      db = await database.open();
      cleanup(() => db.destroy());
      return db;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe('SMTP ingest keeps memory bounded whatever the message size', () => {
  it(
    'four concurrent 60 MB messages to members with filters raise the server RSS by under 150 MB, and all are stored',
    { timeout: 480_000 },
    async () => {
      // Filters that look at the header and at the body: neither reads the whole message into memory.
      const { server, smtpPort, accounts, stopAndOpen } = await serverWithAccounts(4, [
        'if header :contains "subject" "never-there" { discard; }',
        'if header :contains "subject" "never-there" { discard; }',
        'require "body"; if body :contains "never-there" { discard; }',
        'require "body"; if body :raw :contains "never-there" { discard; }',
      ]);
      const transport = () =>
        nodemailer.createTransport({
          host: '127.0.0.1',
          port: smtpPort,
          ignoreTLS: true,
          socketTimeout: 180_000,
        });
      // Warm-up: the parse workers (two) start with the first messages, and every path a delivery takes (each
      // filter, the tables and indexes a message touches: PGlite's pages are in this process) has run once.
      await Promise.all(
        [0, 1, 2, 3].map((i) =>
          transport().sendMail({
            from: 'warm@example.com',
            to: accounts[i]!.email,
            subject: 'warm-up',
            text: 'hello',
            attachments: [{ filename: 'small.bin', content: randomBytes(2 * MB) }],
          }),
        ),
      );
      await settle();
      const baseline = await rssOf(server.pid!);

      // A 45 MiB attachment is ~61 MB of message after base64, near the 70 MB default limit.
      const attachment = randomBytes(45 * MB);
      const raw = await new MailComposer({
        from: 'big@example.com',
        to: 'someone@mailroom.test',
        subject: 'Sixty megabytes',
        text: 'The scans you asked for.',
        attachments: [{ filename: 'scans.bin', content: attachment }],
      })
        .compile()
        .build();
      expect(raw.length).toBeGreaterThan(60_000_000);
      const peak = watchPeak(server.pid!);
      const started = performance.now();
      // Each message differs in its first line, so none is stored as a copy of another.
      const infos = await Promise.all(
        accounts.map((account, i) =>
          transport().sendMail({
            envelope: { from: 'big@example.com', to: [account.email] },
            raw: Readable.from([Buffer.from(`X-Sequence: ${i}\r\n`), raw]),
          }),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const rise = (await peak.stop()) - baseline;
      console.log(
        `4 × ${(raw.length / MB).toFixed(0)} MiB over SMTP in ${seconds.toFixed(1)} s: ` +
          `RSS ${(baseline / MB).toFixed(0)} MiB → peak +${(rise / MB).toFixed(0)} MiB`,
      );
      for (const info of infos) expect(info.response).toMatch(/^250 /);
      expect(rise).toBeLessThan(150 * MB);

      const db = await stopAndOpen();
      const stored = await db
        .selectFrom('messages')
        .select(['account_id', 'size', 'attachments'])
        .where('subject', '=', 'Sixty megabytes')
        .execute();
      expect(stored.map((m) => m.account_id).sort()).toEqual(accounts.map((a) => a.id).sort());
      for (const message of stored) {
        expect(message.size).toBeGreaterThan(60_000_000);
        expect(message.attachments).toMatchObject([{ name: 'scans.bin', size: attachment.length }]);
      }
    },
  );

  it(
    'connections holding unfinished DATA cost the server no more than their buffers',
    { timeout: 120_000 },
    async () => {
      const { server, smtpPort, accounts } = await serverWithAccounts(1);
      await settle();
      const baseline = await rssOf(server.pid!);
      const chunk = Buffer.from(`${'x'.repeat(998)}\r\n`.repeat(1024)); // 1 MB of proper lines
      const sockets: net.Socket[] = [];
      // Twenty senders, each 20 MB into its DATA, none finishing.
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const socket = net.connect(smtpPort, '127.0.0.1');
          sockets.push(socket);
          cleanup(() => socket.destroy());
          let text = '';
          socket.on('data', (d: Buffer) => (text += d.toString()));
          const waitFor = async (pattern: RegExp) => {
            const deadline = Date.now() + 20_000;
            while (!pattern.test(text)) {
              if (Date.now() > deadline) throw new Error(`no ${pattern} in ${text}`);
              await new Promise((r) => setTimeout(r, 20));
            }
          };
          await waitFor(/^220 /m);
          socket.write(
            `EHLO sender.example\r\nMAIL FROM:<a@example.com>\r\nRCPT TO:<${accounts[0]!.email}>\r\nDATA\r\n`,
          );
          await waitFor(/^354 /m);
          socket.write('Subject: never finished\r\n\r\n');
          for (let i = 0; i < 20; i++) {
            if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r));
          }
        }),
      );
      await settle();
      const rise = (await rssOf(server.pid!)) - baseline;
      console.log(`20 unfinished 20 MB DATA sessions: RSS +${(rise / MB).toFixed(0)} MiB`);
      // Holding their data would be 400 MB; what remains is buffers and garbage not yet collected.
      expect(rise).toBeLessThan(100 * MB);
      for (const socket of sockets) socket.destroy();
    },
  );

  it(
    'runs with the memory settings of the serve script: young generation in 4 MB semispaces, WebAssembly compiled lazily, two malloc arenas, a fixed mmap threshold',
    { timeout: 120_000 },
    async () => {
      // What `npm start` runs (apps/server's serve script); the settings that keep the idle server small.
      expect(serveCommand()).toEqual({
        env: { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
        nodeArgs: ['--max-semi-space-size=4', '--wasm-lazy-compilation', '--expose-gc'],
        entry: 'apps/server/build/main.js',
      });
      const { server, metricsPort } = await serverWithAccounts(1);
      // Start-up alone (modules, migrations) grows V8's young generation to its largest: 2 × 16 MB by default.
      const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const newSpace = Number(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(metrics)![1]);
      expect(newSpace).toBeGreaterThan(0);
      expect(newSpace).toBeLessThanOrEqual(8 * MB);
      // glibc reads the variable when the process starts: it must be in the server's own environment.
      const environ = (await fs.readFile(`/proc/${server.pid}/environ`, 'utf8')).split('\0');
      expect(environ).toContain('MALLOC_ARENA_MAX=2');
      expect(environ).toContain('MALLOC_MMAP_THRESHOLD_=131072');
    },
  );
});
