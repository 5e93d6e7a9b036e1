import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, type Collector } from '@mailroom/protocol';
import { startDovecot, type Dovecot } from '../../../../test-support/dovecot.js';
import { apiPath } from '../_client.js';
import { fillFolder } from '../_collectors.js';
import { exited, killTestDeployment, killWhen } from '../_server.js';

/**
 * A collector's import survives the real server being killed mid-way (issue 18): the server (main.ts) runs as a child
 * process, its collector copies 1,000 messages from a real Dovecot, it gets SIGKILL while between 10 % and 90 % of
 * them are done, and a new server on the same database (PGlite in the data folder, or PostgreSQL with DATABASE_URL)
 * finishes the import once the dead process's lease has run out. Every remote message is then there exactly once,
 * by Message-ID, in the local folder of its remote one.
 */
const phase = (what: string) => process.env.CRASH_DEBUG && console.error(new Date().toISOString(), what);

// 1,000 messages: ten batches of 100, three folders; the kill lands in the first (as it did with 2,000, which took 30 s
// more on PGlite to copy for no other path).
const remoteFolders = [
  { remote: 'INBOX', count: 600 },
  { remote: 'Работа', count: 250 },
  { remote: 'Archive', count: 150 },
];
const total = remoteFolders.reduce((n, f) => n + f.count, 0);

let dovecot: Dovecot;
beforeAll(async () => {
  dovecot = await startDovecot({ users: [{ user: 'anna', password: 'anna-pass' }] });
  const client = await dovecot.client('anna');
  for (const f of remoteFolders) {
    if (f.remote !== 'INBOX') await client.mailboxCreate(f.remote);
    await fillFolder(client, f.remote, f.remote, f.count);
  }
  await client.logout();
}, 180_000);
afterAll(() => dovecot?.stop());

describe('a collector import killed mid-way', () => {
  it(
    'brings every remote message exactly once after a SIGKILL of the server mid-import and a restart',
    { timeout: 420_000 },
    async () => {
      const deployment = await killTestDeployment({
        name: 'collectors-kill',
        env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' },
      });
      const { account } = deployment;
      const collectorNow = async (id: number) =>
        (await deployment.api<{ collectors: Collector[] }>(apiPath('collectors'))).collectors.find(
          (c) => c.id === id,
        )!;

      let server = await deployment.start();
      phase('started');
      const { collector } = await deployment.api<{ collector: Collector }>(apiPath('createCollector'), {
        method: apiRoutes.createCollector.method,
        body: {
          email: 'anna@remote.test',
          login: 'anna',
          password: 'anna-pass',
          host: '127.0.0.1',
          port: dovecot.port,
          security: 'none',
        },
      });

      // Killed while the import is between 10 % and 90 % done (progress is saved with each batch of 100): at a point
      // drawn between 10 % and 60 %, so runs kill it at different batches.
      const killFrom = Math.round(total * (0.1 + Math.random() * 0.5));
      const doneAtKill = await killWhen(
        server,
        async () => {
          const c = await collectorNow(collector.id);
          const { messages_done: done, messages_total: all } = c.progress;
          expect(c.last_error).toBeNull();
          return all === total && done >= killFrom ? done : undefined;
        },
        { everyMs: 50 },
      );
      expect(doneAtKill, 'the import never reached 10 %').toBeDefined();
      expect(doneAtKill, 'the import ran past 90 % between two looks').toBeLessThanOrEqual(total * 0.9);
      phase(`killed at ${doneAtKill} of ${total}`);

      // A new server on the same database: the dead process's lease runs out (2 minutes), then the import resumes.
      server = await deployment.start();
      phase('restarted');
      let finished: Collector | undefined;
      for (const deadline = Date.now() + 300_000; Date.now() < deadline;) {
        const c = await collectorNow(collector.id);
        if (c.state === 'idle' && c.last_sync_at && c.progress.messages_done === total) {
          finished = c;
          break;
        }
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(finished, 'the import did not finish after the restart').toBeDefined();
      expect(finished!.progress).toMatchObject({
        messages_total: total,
        messages_done: total,
        messages_skipped: 0,
        folders_done: remoteFolders.length,
      });
      expect(finished!.last_error).toBeNull();
      server.kill('SIGTERM');
      await exited(server);
      phase('stopped');

      const db = await deployment.open();
      try {
        const rows = await db
          .selectFrom('messages')
          .innerJoin('folders', 'folders.id', 'messages.folder_id')
          .select(['folders.name as folder', 'messages.message_id'])
          .where('messages.account_id', '=', account.id)
          .where('folders.name', 'like', `${collector.folder_name}.%`)
          .execute();
        // Every remote Message-ID once, in the local folder of its remote folder; nothing else.
        const expected = remoteFolders
          .flatMap((f) =>
            Array.from(
              { length: f.count },
              (_, i) => `${collector.folder_name}.${f.remote} ${f.remote}.${i + 1}@remote.test`,
            ),
          )
          .sort();
        const found = rows.map((r) => `${r.folder} ${r.message_id}`).sort();
        expect(found.length).toBe(total);
        expect(found).toEqual(expected);
        const counts = await db
          .selectFrom('folders')
          .select(['name', 'total_count'])
          .where('account_id', '=', account.id)
          .where('name', 'like', `${collector.folder_name}.%`)
          .execute();
        expect(Object.fromEntries(counts.map((c) => [c.name, c.total_count]))).toEqual(
          Object.fromEntries(remoteFolders.map((f) => [`${collector.folder_name}.${f.remote}`, f.count])),
        );
        console.info(
          `collectors kill test: killed at ${doneAtKill} of ${total}; ${rows.length} stored once each`,
        );
      } finally {
        await db.destroy();
      }
    },
  );
});
