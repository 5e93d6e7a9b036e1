import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startS3 } from '../../../../test-support/s3.js';
import { migrate, type Db } from '../../src/core/db/index.js';
import { createSession } from '../../src/auth/index.js';
import { createAccount } from '../_mail.js';
import { cleanup } from '../_util.js';
import { exited, prepareDatabase, startCluster, stopCluster } from '../_server.js';
import { startSink } from '../_sending.js';
import { apiPath } from '../_client.js';

/**
 * Scheduled sends on three processes over one PostgreSQL database (issue 31): SCHEDULED_N sends (default 3,000) of
 * ACCOUNTS members fall due within the same minute while one node is killed in the middle of it. Each is released
 * once (one outbox row per recipient, whoever claimed it), reaches the relay sink (twice only in the outbox's known
 * window: the relay's 250 before the killed node's commit) and within seconds of its time; the run prints the largest
 * deviation, and the idle cost of the due-item poll (transactions a second per node, from pg_stat_database).
 */
const NODES = 3;
// CI runs 3,000 (50 a second); the 10,000 in a minute is `SCHEDULED_N=10000` (bench/RESULTS.md has both: on
// this 2-core machine within 5 s when it is otherwise quiet, not when other work takes the cores).
const N = Number(process.env.SCHEDULED_N ?? 3_000);
const ACCOUNTS = 50;
const SPREAD_MS = 60_000;
const RELAY_CONNECTIONS = 4;

const idleTransactions = async (db: Db) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select xact_commit::text as n from pg_stat_database where datname = current_database()`.execute(db)
    ).rows[0]!.n,
  );

describe.skipIf(!process.env.DATABASE_URL)('scheduled sends on three processes over one PostgreSQL', () => {
  it(
    `${N} sends due within one minute, one node killed: each relayed once and on time`,
    { timeout: 420_000 },
    async () => {
      const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-cluster-scheduled-'));
      cleanup(() => fs.rm(root, { recursive: true, force: true }));
      const database = await prepareDatabase(root);
      const s3 = await startS3({ dir: path.join(root, 's3') });
      cleanup(() => s3.stop());
      const sink = await startSink();

      let db = await database.open();
      await migrate(db);
      const senders = await Promise.all(
        Array.from({ length: ACCOUNTS }, async (_, i) => {
          const account = await createAccount(db, `Sam Scheduler ${i + 1}`);
          const { token } = await createSession(db, { accountId: account.id, aliasEmail: null }, 3600_000);
          return { account, token };
        }),
      );
      await db.destroy();

      const nodes = await startCluster({
        count: NODES,
        root,
        databaseUrl: database.url!,
        s3Env: s3.env,
        relayPort: sink.port,
        env: { OUTBOX_POLL_MS: '200', OUTBOX_LEASE_MS: '2000', SCHEDULED_MAX: String(N) },
      });

      db = await database.open();
      try {
        // The idle cost of the polls: every transaction the three idle nodes commit in 5 s.
        await new Promise((r) => setTimeout(r, 2_000));
        const before = await idleTransactions(db);
        await new Promise((r) => setTimeout(r, 5_000));
        const idlePerNode = ((await idleTransactions(db)) - before - 1) / 5 / NODES;

        // Each member schedules one message through the API (far ahead); the database then holds N of them like it,
        // each to its own recipient and a conversation of its own (as separate scheduled messages are: clones in
        // the member's one thread made every release bring up a 200-message conversation), all due within SPREAD_MS
        // from `start`.
        await Promise.all(
          senders.map(async ({ account, token }, i) => {
            const node = nodes[i % NODES]!;
            const response = await fetch(`${node.http}${apiPath('sendMessage')}`, {
              method: 'POST',
              headers: {
                cookie: `mr_sid=${token}`,
                accept: 'application/json',
                'content-type': 'application/json',
                'x-mailroom-csrf': '1',
                origin: node.http,
              },
              body: JSON.stringify({
                subject: `Scheduled from ${account.email}`,
                fields: {
                  from: { email: account.email, name: '' },
                  to: [{ email: 'far@example.com', name: '' }],
                },
                content: '<p>Later</p>',
                send_at: new Date(Date.now() + 86_400_000).toISOString(),
              }),
            });
            expect(response.status, await response.clone().text()).toBe(200);
          }),
        );
        const start = Date.now() + 10_000;
        await sql`
          with first as (
            select s.*, m.folder_id, m.uid, m.id as mid,
              row_number() over (order by s.account_id) - 1 as a
            from scheduled_sends s join messages m on m.id = s.message_row_id
          ),
          n as (select generate_series(0, ${N - 1}::int) as i),
          plan as (
            select f.*, n.i from first f join n on n.i % ${ACCOUNTS}::int = f.a
          ),
          copies as (
            insert into messages (account_id, folder_id, uid, blob_hash, size, message_id, subject,
              thread_subject, from_email, from_name, addresses, preview, seen, received_at)
            select m.account_id, m.folder_id, m.uid + 1 + p.i, m.blob_hash, m.size, m.message_id,
              m.subject, m.thread_subject, m.from_email, m.from_name, m.addresses, m.preview, true,
              to_timestamp(${start / 1000}::float8 + p.i * ${SPREAD_MS / N / 1000}::float8)
            from plan p join messages m on m.id = p.mid
            returning id, account_id, uid
          ),
          numbered as (
            select c.id, c.account_id, c.uid - f.uid - 1 as i from copies c join first f on f.account_id = c.account_id
          ),
          rows as (
            insert into scheduled_sends (account_id, message_row_id, purpose, send_at, blob_hash, size, message_id,
              envelope_from, recipients)
            select f.account_id, x.id, 'later', to_timestamp(${start / 1000}::float8 + x.i * ${SPREAD_MS / N / 1000}::float8),
              f.blob_hash, f.size, f.message_id, f.envelope_from,
              jsonb_build_array(jsonb_build_object('address', 'r' || x.i || '@far.example', 'local', false))
            from numbered x join first f on f.account_id = x.account_id
            returning id, send_at
          )
          insert into jobs (kind, key, run_at) select 'scheduled-send', id::text, send_at from rows`.execute(
          db,
        );
        // The folders' counters and UIDs follow the copies; the API's own sends are withdrawn (they were far ahead).
        await sql`
          update folders f set uidnext = m.top + 1, total_count = m.n
          from (select folder_id, max(uid) as top, count(*) as n from messages group by folder_id) m
          where m.folder_id = f.id`.execute(db);
        await sql`delete from jobs where kind = 'scheduled-send' and run_at > now() + interval '1 hour'`.execute(
          db,
        );
        await sql`delete from scheduled_sends where send_at > now() + interval '1 hour'`.execute(db);
        const planned = new Map(
          (
            await sql<{ address: string; send_at: Date }>`
              select recipients->0->>'address' as address, send_at from scheduled_sends`.execute(db)
          ).rows.map((r) => [r.address, new Date(r.send_at).getTime()]),
        );
        expect(planned.size).toBe(N);

        // Node 2 dies a third of the way into the minute.
        const victim = nodes[1]!;
        await new Promise((r) => setTimeout(r, Math.max(0, start + SPREAD_MS / 3 - Date.now())));
        const sinkAtKill = sink.messages.length;
        victim.dead = true;
        victim.child.kill('SIGKILL');
        await exited(victim.child);

        const deadline = start + SPREAD_MS + 90_000;
        for (;;) {
          const waiting = await sql<{ n: number }>`
            select (select count(*) from scheduled_sends where state = 'waiting')
              + (select count(*) from outbox where status = 'queued') as n`.execute(db);
          if (Number(waiting.rows[0]!.n) === 0) break;
          if (Date.now() > deadline) throw new Error(`${waiting.rows[0]!.n} still waiting`);
          await new Promise((r) => setTimeout(r, 250));
        }
        await new Promise((r) => setTimeout(r, 500));

        // Released once: one outbox row per recipient.
        const outbox = await sql<{ recipient: string; n: number; queued_at: Date }>`
          select recipient, count(*)::int as n, min(created_at) as queued_at from outbox group by recipient`.execute(
          db,
        );
        expect(outbox.rows.length).toBe(N);
        expect(outbox.rows.filter((r) => r.n !== 1)).toEqual([]);

        // Relayed once (twice only in the outbox's window), each within seconds of its time.
        const copies = new Map<string, number[]>();
        sink.messages.forEach((m, index) => {
          for (const to of m.to) copies.set(to, [...(copies.get(to) ?? []), index]);
        });
        expect(copies.size).toBe(N);
        const twice = [...copies].filter(([, c]) => c.length > 1);
        for (const [to, c] of twice) {
          expect(c, to).toHaveLength(2);
          expect(c[0]!, to).toBeLessThan(sinkAtKill);
        }
        expect(twice.length).toBeLessThanOrEqual(RELAY_CONNECTIONS);
        let maxLate = -Infinity;
        let maxEarly = 0;
        const deviations: number[] = [];
        for (const [to, c] of copies) {
          const deviation = sink.messages[c[0]!]!.at - planned.get(to)!;
          deviations.push(deviation);
          maxLate = Math.max(maxLate, deviation);
          maxEarly = Math.min(maxEarly, deviation);
        }
        deviations.sort((a, b) => a - b);
        const pct = (p: number) => Math.round(deviations[Math.floor((deviations.length - 1) * p)]!);
        // Where the time went: released (its outbox row written) after its time, and relayed after the release;
        // and the latest by tenth of the minute (the kill falls in the fourth).
        const queuedAt = new Map(outbox.rows.map((r) => [r.recipient, new Date(r.queued_at).getTime()]));
        const released = [...planned].map(([to, at]) => queuedAt.get(to)! - at).sort((a, b) => a - b);
        const relayed = [...copies]
          .map(([to, c]) => sink.messages[c[0]!]!.at - queuedAt.get(to)!)
          .sort((a, b) => a - b);
        const p95 = (list: number[]) => Math.round(list[Math.floor((list.length - 1) * 0.95)]!);
        const tenths = Array.from({ length: 10 }, () => 0);
        for (const [to, c] of copies) {
          const tenth = Math.min(9, Math.max(0, Math.floor(((planned.get(to)! - start) / SPREAD_MS) * 10)));
          tenths[tenth] = Math.max(tenths[tenth]!, sink.messages[c[0]!]!.at - planned.get(to)!);
        }
        console.info(
          `scheduled cluster: released after its time p95 ${p95(released)} ms, max ${Math.round(released.at(-1)!)}; ` +
            `relayed after its release p95 ${p95(relayed)} ms, max ${Math.round(relayed.at(-1)!)}; ` +
            `the latest by tenth of the minute: ${tenths.map((t) => Math.round(t)).join(', ')} ms`,
        );
        console.info(
          `scheduled cluster: ${N} sends of ${ACCOUNTS} accounts due within ${SPREAD_MS / 1000} s on ${NODES} nodes, ` +
            `node 2 killed after ${sinkAtKill} relayed; ${twice.length} relayed twice; the latest ${Math.round(maxLate)} ms ` +
            `after its time (p50 ${pct(0.5)} ms, p95 ${pct(0.95)}, p99 ${pct(0.99)}), the earliest ${Math.round(-maxEarly)} ms ` +
            `before; idle: ${idlePerNode.toFixed(2)} ` +
            `transactions a second per node`,
        );
        expect(maxEarly).toBeGreaterThan(-1_000);
        expect(maxLate).toBeLessThan(5_000);
      } finally {
        await db.destroy();
      }
      await stopCluster(nodes);
    },
  );
});
