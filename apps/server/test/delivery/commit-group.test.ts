import pino from 'pino';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { InProcessEventBus } from '../../src/core/events/index.js';
import { deliverMessage, type DeliveryOutcome } from '../../src/delivery/index.js';
import { storeInGroup } from '../../src/delivery/commit-group.js';
import { ingest, IngestFailed, messageBlobsFor, parseMessage } from '../../src/mailbox/index.js';
import { createAccount } from '../_mail.js';
import { createTestDb, testBlobStore, testConfig } from '../_util.js';

const message = (n: number) =>
  Buffer.from(
    `From: Sender ${n} <sender${n}@example.org>\r\nTo: someone@mailroom.test\r\nSubject: Message ${n}\r\n` +
      `Message-ID: <m${n}@example.org>\r\n\r\nBody of message ${n}, ${'words '.repeat(n % 7)}\r\n`,
  );

async function setUp() {
  const db = await createTestDb();
  const config = await testConfig();
  const blobs = await testBlobStore(db, config);
  const ann = await createAccount(db, 'Ann Lee');
  const bob = await createAccount(db, 'Bob Ray');
  // Bob's mailbox is full.
  await db
    .updateTable('accounts')
    .set({ quota_limit_bytes: 1000, quota_used_bytes: 1000 })
    .where('id', '=', bob.id)
    .execute();
  return { db, config, blobs, ann, bob };
}

describe('deliveries storing at the same time', () => {
  it('share a commit, and a store that fails among them is refused without losing the others', async () => {
    const { db, blobs, ann, bob } = await setUp();
    const sources = await Promise.all(
      Array.from({ length: 12 }, async (_, n) => ({
        parsed: await parseMessage(message(n)),
        blobs: await messageBlobsFor(blobs, message(n)),
      })),
    );
    // Asked for in one go: the first two run at once, alone; the others wait and go as groups.
    const settled = await Promise.allSettled(
      sources.map((source, n) =>
        storeInGroup(db, n === 5 ? bob.id : ann.id, (trx) =>
          ingest(trx, blobs, source, [
            { accountId: n === 5 ? bob.id : ann.id, copies: [{ folder: 'inbox' }] },
          ]),
        ),
      ),
    );
    settled.forEach((s, n) => {
      if (n === 5) expect(s).toMatchObject({ status: 'rejected', reason: expect.any(IngestFailed) });
      else expect(s.status).toBe('fulfilled');
    });
    const rows = await sql<{ subject: string; tx: string; blob: boolean }>`
      select m.subject, m.xmin::text as tx, exists (select 1 from blobs b where b.hash = m.blob_hash) as blob
      from messages m where m.account_id = ${ann.id}`.execute(db);
    expect(rows.rows.map((r) => r.subject).sort()).toEqual(
      [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11].map((n) => `Message ${n}`).sort(),
    );
    expect(rows.rows.every((r) => r.blob)).toBe(true);
    // Rows committed together share their transaction id: fewer transactions than messages.
    expect(new Set(rows.rows.map((r) => r.tx)).size).toBeLessThan(rows.rows.length);
    expect(await db.selectFrom('messages').where('account_id', '=', bob.id).select('id').execute()).toEqual(
      [],
    );
  });

  it('each get their own outcome, a full mailbox among them refused without losing the others', async () => {
    const { db, config, blobs, ann, bob } = await setUp();
    const events = new InProcessEventBus();
    const deps = { config, db, blobs, events, log: pino({ level: 'silent' }) };
    const recipient = (account: typeof ann) => ({
      address: account.email,
      accountId: account.id,
      aliasId: null,
      quotaLimitBytes: account.id === bob.id ? 1000 : 1e9,
      quotaUsedBytes: 0,
    });
    const published: MailEvent[] = [];
    events.subscribe(ann.id, (e) => published.push(e));

    // 24 deliveries at once, every fourth to Bob.
    const outcomes: DeliveryOutcome[][] = await Promise.all(
      Array.from({ length: 24 }, (_, n) =>
        deliverMessage(deps, message(n), [recipient(n % 4 === 3 ? bob : ann)], 'together', {
          from: `sender${n}@example.org`,
        }).then((d) => d.outcomes),
      ),
    );
    outcomes.forEach((o, n) =>
      expect(o).toEqual([n % 4 === 3 ? { ok: false, failure: 'quota' } : { ok: true }]),
    );

    const rows = await sql<{ subject: string; size: number; blob: boolean }>`
      select m.subject, m.size, exists (select 1 from blobs b where b.hash = m.blob_hash) as blob
      from messages m where m.account_id = ${ann.id} order by m.uid`.execute(db);
    expect(rows.rows.map((r) => r.subject).sort()).toEqual(
      Array.from({ length: 24 }, (_, n) => n)
        .filter((n) => n % 4 !== 3)
        .map((n) => `Message ${n}`)
        .sort(),
    );
    // Every message's blob was written with it.
    expect(rows.rows.every((r) => r.blob)).toBe(true);
    // Nothing of Bob's, not even the quota a rolled-back group had charged; Ann's counters are exact.
    expect(await db.selectFrom('messages').where('account_id', '=', bob.id).select('id').execute()).toEqual(
      [],
    );
    const quota = await db
      .selectFrom('accounts')
      .select(['id', 'quota_used_bytes'])
      .where('id', 'in', [ann.id, bob.id])
      .orderBy('id')
      .execute();
    expect(quota).toEqual([
      { id: ann.id, quota_used_bytes: rows.rows.reduce((n, r) => n + Number(r.size), 0) },
      { id: bob.id, quota_used_bytes: 1000 },
    ]);
    const inbox = await db
      .selectFrom('folders')
      .select(['total_count', 'unread_count'])
      .where('account_id', '=', ann.id)
      .where('system', '=', 'inbox')
      .executeTakeFirstOrThrow();
    expect(inbox).toEqual({ total_count: 18, unread_count: 18 });
    // Each stored message was announced once, after its commit.
    expect(published.filter((e) => e.event === 'new')).toHaveLength(18);
  });
});
