import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { migrate, openDatabase, type Db } from '../src/core/db/index.js';
import { createAccount } from './_mail.js';
import { cleanup } from './_util.js';

const root = new URL('../../../', import.meta.url).pathname;
const mainTs = path.join(root, 'apps/server/src/main.ts');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 100_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`server exited (${child.exitCode ?? child.signalCode})`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

/** The real server (main.ts) as a child process, the way `npm start` runs it, minus the build. */
function startServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--conditions=@mailroom/source', '--import', 'tsx', mainTs], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.on('exit', (code, signal) => {
    if (code && code !== 0) console.error(`server exited ${code} ${signal}: ${stderr}`);
  });
  cleanup(() => {
    if (!hasExited(child)) child.kill('SIGKILL');
  });
  return child;
}

const phase = (what: string) => process.env.CRASH_DEBUG && console.error(new Date().toISOString(), what);

/** A child killed by a signal has signalCode set and exitCode null. */
const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

const exited = (child: ChildProcess) =>
  hasExited(child) ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** A database for the child server: a PostgreSQL database of its own, or PGlite in its data folder. */
async function prepareDatabase(
  dataDir: string,
): Promise<{ url: string | undefined; open: () => Promise<Db> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    return {
      url: undefined,
      open: () => openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }),
    };
  }
  const name = `mailroom_crash_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanup(async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.href, open: () => openDatabase({ kind: 'postgres', url: url.href }) };
}

describe('crash safety of SMTP ingest', () => {
  it(
    'every message that got 250 is there once after a SIGKILL and restart, and nothing half-written is visible',
    { timeout: 240_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-crash-'));
      cleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
      const database = await prepareDatabase(dataDir);
      let db = await database.open();
      await migrate(db);
      const account = await createAccount(db, 'Crash Test');
      await db.destroy();

      const smtpPort = await freePort();
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        SMTP_PORT: String(smtpPort),
        LOG_LEVEL: 'error',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      };
      phase('starting');
      let server = startServer(env);
      await waitForPort(smtpPort, server);
      phase('started');

      // A first message warms the server up (parse worker, connections), then four senders run in
      // parallel until the server dies under them at a random moment.
      const timeouts = { connectionTimeout: 5000, greetingTimeout: 5000, socketTimeout: 15_000 };
      const accepted = new Set<string>();
      const warm = nodemailer.createTransport({
        host: '127.0.0.1',
        port: smtpPort,
        ignoreTLS: true,
        ...timeouts,
      });
      await warm.sendMail({
        from: 'sender@example.org',
        to: account.email,
        subject: 'crash-warm-up',
        text: 'x',
      });
      accepted.add('crash-warm-up');
      warm.close();
      let sent = 0;
      let dead = false;
      const started = Date.now();
      const killAfter = 200 + Math.random() * 2000;
      const killer = setTimeout(() => {
        dead = true;
        server.kill('SIGKILL');
      }, killAfter);
      const sender = async (n: number) => {
        const transport = nodemailer.createTransport({
          host: '127.0.0.1',
          port: smtpPort,
          ignoreTLS: true,
          ...timeouts,
        });
        while (!dead && sent < 200 && Date.now() - started < 30_000) {
          const subject = `crash-${n}-${sent++}`;
          try {
            const info = await transport.sendMail({
              from: 'sender@example.org',
              to: account.email,
              subject,
              text: `${subject}\n${randomBytes(2000).toString('base64')}`,
              attachments: [{ filename: `${subject}.bin`, content: randomBytes(3000) }],
            });
            if (/^250 /.test(info.response)) accepted.add(subject);
          } catch {
            // No 250: the message may or may not be stored; both are allowed.
          }
        }
        transport.close();
      };
      await Promise.all([0, 1, 2, 3].map(sender));
      clearTimeout(killer);
      if (!dead) server.kill('SIGKILL');
      phase(`killed; sent ${sent}, accepted ${accepted.size}`);
      await exited(server);
      phase('exited');
      expect(accepted.size).toBeGreaterThan(0);

      // Restart on the same data folder: it recovers and takes mail again.
      server = startServer(env);
      await waitForPort(smtpPort, server);
      phase('restarted');
      const after = nodemailer.createTransport({
        host: '127.0.0.1',
        port: smtpPort,
        ignoreTLS: true,
        ...timeouts,
      });
      const info = await after.sendMail({
        from: 'a@example.org',
        to: account.email,
        subject: 'after restart',
        text: 'ok',
      });
      expect(info.response).toMatch(/^250 /);
      after.close();
      phase('sent after restart');
      server.kill('SIGTERM');
      await exited(server);
      phase('stopped');

      db = await database.open();
      try {
        const rows = await db
          .selectFrom('messages')
          .leftJoin('message_contents', 'message_contents.message_id', 'messages.id')
          .select([
            'messages.subject',
            'messages.blob_hash',
            'messages.attachments',
            'message_contents.message_id as content_id',
          ])
          .where('account_id', '=', account.id)
          .execute();
        const subjects = rows.map((r) => r.subject);
        for (const subject of accepted)
          expect(
            subjects.filter((s) => s === subject),
            subject,
          ).toHaveLength(1);
        expect(new Set(subjects).size).toBe(subjects.length);
        expect(subjects).toContain('after restart');
        const folder = await db
          .selectFrom('folders')
          .select(['total_count', 'unread_count'])
          .where('account_id', '=', account.id)
          .where('system', '=', 'inbox')
          .executeTakeFirstOrThrow();
        expect(folder).toEqual({ total_count: rows.length, unread_count: rows.length });
        const blobFile = (hash: string) =>
          path.join(dataDir, 'blobs', hash.slice(0, 2), hash.slice(2, 4), hash);
        for (const row of rows) {
          expect(row.content_id, row.subject).not.toBeNull();
          for (const hash of [row.blob_hash, ...row.attachments.map((a) => a.blob_hash)]) {
            const bytes = await fs.readFile(blobFile(hash));
            expect(createHash('sha256').update(bytes).digest('hex')).toBe(hash);
          }
        }
        console.info(
          `crash test: ${sent} sent, ${accepted.size} got 250, ${rows.length} stored, killed after ${Math.round(killAfter)} ms`,
        );
      } finally {
        await db.destroy();
      }
    },
  );
});
