import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startDovecot, type Dovecot } from '../../../../test-support/dovecot.js';
import { runCollectorPass } from '../../src/collectors/index.js';
import { createTestDb } from '../_util.js';
import { createAccount } from '../_mail.js';
import { addCollector, fillFolder, importDeps, importedMessages } from '../_collectors.js';

/**
 * Two engine instances on one database (two processes of one deployment; real parallelism on PostgreSQL): each
 * collector is claimed by one of them at a time, and even a pass that loses its lease mid-way (a stalled process)
 * stores nothing twice.
 */
const db = await createTestDb();
let dovecot: Dovecot;

beforeAll(async () => {
  dovecot = await startDovecot({
    users: ['anna', 'boris', 'vera'].map((user) => ({ user, password: `${user}-pass` })),
  });
  for (const user of ['anna', 'boris', 'vera']) {
    const client = await dovecot.client(user);
    await client.mailboxCreate('Письма');
    await fillFolder(client, 'INBOX', user, 150);
    await fillFolder(client, 'Письма', `${user} письмо`, 50);
    await client.logout();
  }
}, 120_000);
afterAll(() => dovecot?.stop());

describe('two engines sharing one database', () => {
  it('copy every message of every collector exactly once', async () => {
    const a = await importDeps(db, { owner: 'engine-a', batchMessages: 15 });
    const b = await importDeps(db, { owner: 'engine-b', batchMessages: 15, blobs: a.blobs });
    const collectors = [];
    for (const user of ['anna', 'boris']) {
      const account = await createAccount(db, `${user} shared`);
      collectors.push({ account, row: await addCollector(db, account.id, dovecot, user, `${user}-pass`) });
    }
    const drain = async (deps: typeof a) => {
      while (await runCollectorPass(deps));
    };
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    for (const { account, row } of collectors) {
      const messages = await importedMessages(db, account.id, row.folder_name);
      expect(messages).toHaveLength(200);
      expect(new Set(messages.map((m) => m.message_id)).size).toBe(200);
      const after = await db
        .selectFrom('collectors')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(after).toMatchObject({ state: 'idle', messages_done: 200, lease_owner: null });
    }
  }, 120_000);

  it('a pass whose lease ran out while it stalled is taken over, and its late batch is rolled back, not stored twice', async () => {
    const account = await createAccount(db, 'vera shared');
    const row = await addCollector(db, account.id, dovecot, 'vera', 'vera-pass');
    let release!: () => void;
    const stalled = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atStall = new Promise<void>((r) => (reached = r));
    let batches = 0;
    const slow = await importDeps(db, {
      owner: 'engine-slow',
      batchMessages: 20,
      leaseMs: 60_000,
      afterBatch: async () => {
        if (++batches === 2) {
          reached();
          await stalled;
        }
      },
    });
    const fast = await importDeps(db, { owner: 'engine-fast', batchMessages: 20, blobs: slow.blobs });
    const slowPass = runCollectorPass(slow);
    await atStall;
    // The slow process's lease runs out (fast-forwarded), and the other engine takes the collector and finishes it.
    await db
      .updateTable('collectors')
      .set({ lease_until: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', row.id)
      .execute();
    await db
      .updateTable('jobs')
      .set({
        run_at: sql<Date>`now() - interval '1 second'`,
        lease_until: sql<Date>`now() - interval '1 second'`,
      })
      .where('kind', '=', 'collector')
      .where('key', '=', String(row.id))
      .execute();
    expect(await runCollectorPass(fast)).toBe(true);
    release();
    await slowPass;
    const messages = await importedMessages(db, account.id, row.folder_name);
    expect(messages).toHaveLength(200);
    expect(new Set(messages.map((m) => m.message_id)).size).toBe(200);
    const after = await db
      .selectFrom('collectors')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({ state: 'idle', lease_owner: null, messages_done: 200 });
  }, 120_000);
});
