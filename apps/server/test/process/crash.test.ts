import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { migrate } from '../../src/core/db/index.js';
import { openBlobStore } from '../../src/core/blobs/index.js';
import { createAccount } from '../_mail.js';
import { cleanup } from '../_util.js';
import { freePort, waitForPort } from '../../../../test-support/ports.js';
import { exited, prepareDatabase, startServer } from '../_server.js';

const phase = (what: string) => process.env.CRASH_DEBUG && console.error(new Date().toISOString(), what);

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
          .where('messages.account_id', '=', account.id)
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
        // Read as the server reads them: small messages from the database, large ones from their files.
        const blobs = await openBlobStore(db, path.join(dataDir, 'blobs'));
        for (const row of rows) {
          expect(row.content_id, row.subject).not.toBeNull();
          const bytes = await blobs.get(row.blob_hash);
          expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.blob_hash);
          // Attachments are ranges of those bytes.
          for (const a of row.attachments) expect(a.part!.end).toBeLessThanOrEqual(bytes.length);
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
