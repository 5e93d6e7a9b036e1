import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MailImport } from '@mailroom/protocol';
import { waitForPort, freePort } from '../../../../test-support/ports.js';
import { corpus } from '../../../../test-support/corpus.js';
import { migrate } from '../../src/core/db/index.js';
import { createSession } from '../../src/auth/index.js';
import { startImport } from '../../src/imports/index.js';
import { createAccount } from '../_mail.js';
import { cleanup } from '../_util.js';
import { apiPath } from '../_client.js';
import { exited, prepareDatabase, startServer } from '../_server.js';
import { sha256, takeoutMbox } from '../_imports.js';

/**
 * A mail import survives the real server being killed mid-way, three times (issue 33): the server (main.ts) runs as
 * a child process importing a Takeout mbox of the shared corpus, gets SIGKILL at a point drawn anew each time, and a
 * new server on the same database (PGlite in the data folder, or PostgreSQL with DATABASE_URL) takes the import up
 * where its last batch committed. Every message is then there exactly once, byte for byte.
 */
const COUNT = 1500;

describe('a mail import killed mid-way', () => {
  it(
    'stores every message of the mbox exactly once after three SIGKILLs of the server mid-import',
    { timeout: 600_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-import-kill-'));
      cleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
      const { files, entries } = await corpus(COUNT);
      const file = path.join(dataDir, 'takeout.mbox');
      const expected = await takeoutMbox(files, entries, file);

      const database = await prepareDatabase(dataDir);
      let db = await database.open();
      await migrate(db);
      const account = await createAccount(db, 'Ivan Kill');
      const { token } = await createSession(db, { accountId: account.id, aliasEmail: null }, 3600_000);
      const started = await startImport(db, account.id, { file: { path: file } });
      await db.destroy();

      const httpPort = await freePort();
      const smtpPort = await freePort();
      const http = `http://127.0.0.1:${httpPort}`;
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(httpPort),
        PUBLIC_URL: http,
        SMTP_PORT: String(smtpPort),
        LOG_LEVEL: 'error',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      };
      const progress = async (): Promise<MailImport> => {
        const response = await fetch(`${http}${apiPath('mailImport', { params: { id: started.id } })}`, {
          headers: { cookie: `mr_sid=${token}`, accept: 'application/json' },
        });
        if (!response.ok) throw new Error(`mailImport: ${response.status} ${await response.text()}`);
        return ((await response.json()) as { import: MailImport }).import;
      };

      const kills: number[] = [];
      for (let round = 0; round < 3; round++) {
        const server = startServer(env);
        await waitForPort(httpPort, server, 180_000);
        // Killed after at least one more batch than last time, at a point drawn up to 85 % of the file.
        const killFrom = Math.max(
          (kills.at(-1) ?? 0) + 1,
          Math.round(COUNT * (0.1 + (round + Math.random()) * 0.25)),
        );
        for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
          const p = await progress();
          expect(p.error).toBeNull();
          if (p.done >= killFrom) {
            server.kill('SIGKILL');
            kills.push(p.done);
            break;
          }
          await new Promise((r) => setTimeout(r, 20));
        }
        await exited(server);
        expect(kills, `round ${round}: the import never reached ${killFrom}`).toHaveLength(round + 1);
      }
      expect(kills.at(-1)!, 'killed before the end').toBeLessThan(COUNT);

      const server = startServer(env);
      await waitForPort(httpPort, server, 180_000);
      let finished: MailImport | undefined;
      for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
        const p = await progress();
        if (p.state !== 'running' && p.state !== 'queued') {
          finished = p;
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      server.kill('SIGTERM');
      await exited(server);
      expect(finished).toMatchObject({ state: 'done', done: COUNT, total: COUNT, skipped: 0, failed: 0 });
      // A batch the kill cut short stored nothing: what each run stored adds up to the file.
      expect(finished!.stored + finished!.already_here).toBe(COUNT);

      db = await database.open();
      try {
        const rows = await db
          .selectFrom('messages')
          .select('blob_hash')
          .where('account_id', '=', account.id)
          .execute();
        const hashes = rows.map((r) => r.blob_hash).sort();
        expect(hashes.length, 'no duplicates, none missing').toBe(COUNT);
        expect(hashes).toEqual(expected.map((e) => sha256(e.bytes)).sort());
        console.info(`mail import kill test: killed at ${kills.join(', ')} of ${COUNT}; each stored once`);
      } finally {
        await db.destroy();
      }
    },
  );
});
