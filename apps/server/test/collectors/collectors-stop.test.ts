import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startDovecot, type Dovecot } from '../../../../test-support/dovecot.js';
import { startCollectorJobs, type CollectorImportDeps } from '../../src/collectors/index.js';
import { metricsRegistry } from '../../src/core/metrics.js';
import { createTestDb } from '../_util.js';
import { createAccount } from '../_mail.js';
import { addCollector, fillFolder, importDeps, importedMessages, syncNow } from '../_collectors.js';

/** The collectors' job stopping (a process shutting down) against a real Dovecot on loopback. */
const db = await createTestDb();
let dovecot: Dovecot;
let deps: CollectorImportDeps;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [{ user: 'stop', password: 'stop-pass' }] });
  deps = await importDeps(db);
}, 120_000);
afterAll(() => dovecot?.stop());

const passes = async (result: string) =>
  ((await metricsRegistry.getSingleMetric('mailroom_collector_passes_total')!.get()).values.find(
    (v) => v.labels.result === result,
  )?.value ?? 0) as number;

describe('stopping the collectors job', () => {
  it('ends the pass between batches and gives its lease back, so the next process takes the collector at once', async () => {
    const client = await dovecot.client('stop');
    await fillFolder(client, 'INBOX', 'stop', 200);
    await client.logout();
    const account = await createAccount(db, 'Stop Collector');
    const row = await addCollector(db, account.id, dovecot, 'stop', 'stop-pass');
    await db
      .updateTable('collectors')
      .set({ next_sync_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
    const stoppingBefore = await passes('stopping');

    let batches = 0;
    let stopped: Promise<void> | undefined;
    let leaseWhileRunning: { lease_owner: string | null; lease_until: Date | null } | undefined;
    const jobs = startCollectorJobs({
      ...deps,
      owner: 'stopping-process',
      concurrency: 1,
      pollMs: 3600_000,
      batchMessages: 20,
      afterBatch: async () => {
        if (++batches !== 2) return;
        leaseWhileRunning = await db
          .selectFrom('collectors')
          .select(['lease_owner', 'lease_until'])
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        // The process is told to stop mid-pass (not awaited here: stopping waits for this very pass).
        stopped = jobs.stop();
      },
    });
    for (let i = 0; i < 300 && !stopped; i++) await new Promise((r) => setTimeout(r, 100));
    await stopped;

    expect(leaseWhileRunning).toMatchObject({ lease_owner: 'stopping-process' });
    expect(leaseWhileRunning!.lease_until).not.toBeNull();
    const after = await db
      .selectFrom('collectors')
      .select([
        'state',
        'lease_owner',
        'lease_until',
        'last_error',
        sql<boolean>`next_sync_at <= now()`.as('due'),
      ])
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({
      state: 'idle',
      lease_owner: null,
      lease_until: null,
      last_error: null,
      due: true,
    });
    expect(await passes('stopping')).toBe(stoppingBefore + 1);
    const partial = await importedMessages(db, account.id, row.folder_name);
    expect(partial.length).toBeGreaterThanOrEqual(40);
    expect(partial.length).toBeLessThan(200);

    // Another process takes it at once and finishes the import, nothing twice.
    const resumed = await syncNow({ ...deps, owner: 'next-process' }, row.id);
    expect(resumed).toMatchObject({ state: 'idle', messages_done: 200 });
    const all = await importedMessages(db, account.id, row.folder_name);
    expect(all).toHaveLength(200);
    expect(new Set(all.map((m) => m.message_id)).size).toBe(200);
  }, 120_000);
});
