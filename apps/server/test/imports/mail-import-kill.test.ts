import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MailImport } from '@mailroom/protocol';
import { corpus } from '../../../../test-support/corpus.js';
import { startImport } from '../../src/imports/index.js';
import { apiPath } from '../_client.js';
import { exited, killTestDeployment, killWhen } from '../_server.js';
import { sha256, takeoutMbox } from '../_imports.js';

/**
 * A mail import survives the real server being killed mid-way, three times (issue 33): the server (main.ts) runs as
 * a child process importing a Takeout mbox of the shared corpus, gets SIGKILL at a point drawn anew each time, and a
 * new server on the same database (PGlite in the data folder, or PostgreSQL with DATABASE_URL) takes the import up
 * where its last batch committed. Every message is then there exactly once, byte for byte.
 *
 * 1,000 messages: five batches of 200 (import-run.ts), so each of the three kills lands after a batch of its own and
 * one batch at least is left for the last server (1,500 took 25 s more on PGlite for no other path).
 */
const COUNT = 1000;

describe('a mail import killed mid-way', () => {
  it(
    'stores every message of the mbox exactly once after three SIGKILLs of the server mid-import',
    { timeout: 600_000 },
    async () => {
      const { files, entries } = await corpus(COUNT);
      const deployment = await killTestDeployment({
        name: 'import-kill',
        async prepare(db, account, dataDir) {
          const file = path.join(dataDir, 'takeout.mbox');
          const expected = await takeoutMbox(files, entries, file);
          return { expected, started: await startImport(db, account.id, { file: { path: file } }) };
        },
      });
      const { expected, started } = deployment.prepared;
      const progress = async () =>
        (await deployment.api<{ import: MailImport }>(apiPath('mailImport', { params: { id: started.id } })))
          .import;

      const kills: number[] = [];
      for (let round = 0; round < 3; round++) {
        const server = await deployment.start();
        // Killed after at least one more batch than last time, at a point drawn up to 79 % of the file (the last
        // batch, 80-100 %, is the last server's).
        const killFrom = Math.max(
          (kills.at(-1) ?? 0) + 1,
          Math.round(COUNT * (0.1 + (round + Math.random()) * 0.23)),
        );
        const killedAt = await killWhen(
          server,
          async () => {
            const p = await progress();
            expect(p.error).toBeNull();
            return p.done >= killFrom ? p.done : undefined;
          },
          { everyMs: 20 },
        );
        expect(killedAt, `round ${round}: the import never reached ${killFrom}`).toBeDefined();
        kills.push(killedAt!);
      }
      expect(kills.at(-1)!, 'killed before the end').toBeLessThan(COUNT);

      const server = await deployment.start();
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

      const db = await deployment.open();
      try {
        const rows = await db
          .selectFrom('messages')
          .select('blob_hash')
          .where('account_id', '=', deployment.account.id)
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
