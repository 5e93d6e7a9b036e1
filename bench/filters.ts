/**
 * Filters (issue 14, DESIGN.md §5: delivery with a 20-rule filter script at most 10 % slower than without).
 *
 * Delivery: the real server (apps/server/dist/main.js) on a fresh data folder; nodemailer sends ~20 KB messages
 * over 8 pooled connections to three kinds of mailbox, 10 each: no script, a 20-rule script of sender, recipient
 * and subject tests, and the same with one body test (which every message reaches, so every message's MIME parts
 * are read). One rule files a message in four. The kinds take turns, round by round, so all see the same machine;
 * the server's CPU per message is given beside the rates (on a loaded machine it says more). A message counts
 * when its 250 arrives (blobs fsynced, rows committed).
 *
 * Apply to a folder: one mailbox filled over SMTP, then a run of a 20-rule script over its Inbox, in process (the
 * filter-run job's batches, without HTTP), for real: a quarter of the messages match and move.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/filters.ts [count] [apply count] [databaseUrl]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { sql } from 'kysely';
import { joinRules } from '@mailroom/sieve';
import { migrate, openDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import { openBlobStore } from '../apps/server/src/core/blobs/index.js';
import { InProcessEventBus } from '../apps/server/src/core/events/index.js';
import { runFilterBatch } from '../apps/server/src/filters/index.js';
import { runOnMessage } from '../apps/server/src/filters/message-host.js';
import type { BenchRow } from './types.js';
import { cpuSecondsOf, startServer } from './server-process.js';
import { message as ingestMessage } from './ingest.js';

const CONNECTIONS = 8;
const MAILBOXES = 10;
/** Rounds per kind; each round's rates are compared with the baseline's in the same round (load drifts slowly). */
const ROUNDS = 10;

/**
 * Twenty rules as people write them: most test the sender or subject and do not match; the last files a message in
 * four. With `body`, rule 19 tests the body text (reached by every message, so every message's parts are read).
 */
export function twentyRuleScript(opts: { body: boolean } = { body: true }): string {
  const rules = [];
  for (let i = 0; i < 14; i++)
    rules.push({
      name: `From ${i}`,
      enabled: true,
      text: `if address :is "from" "nobody${i}@example.net"\n{\n\taddflag "\\\\Seen";\n\tfileinto :create "Rule ${i}";\n}`,
    });
  for (let i = 0; i < 4; i++)
    rules.push({
      name: `Subject ${i}`,
      enabled: true,
      text: `if anyof (header :contains "subject" "never-${i}", header :is "list-id" "<l${i}.example.net>")\n{\n\tfileinto :create "Lists ${i}";\n\tstop;\n}`,
    });
  rules.push(
    opts.body
      ? {
          name: 'Body',
          enabled: true,
          text: 'if body :text :contains "unsubscribe-xyz-123"\n{\n\tdiscard;\n}',
        }
      : { name: 'To', enabled: true, text: 'if address :is "to" "nobody@example.net"\n{\n\tdiscard;\n}' },
  );
  rules.push({
    name: 'Senders',
    enabled: true,
    text: 'if address :domain :is "from" "example.org"\n{\n\taddflag "\\\\Flagged";\n\tfileinto :create "Senders";\n}',
  });
  return joinRules({ preamble: '', rules });
}

/** The ingest benchmark's message; one in four from example.org, the domain the last rule files. */
const message = (i: number, to: string) => ingestMessage(i, to, i % 4 === 0 ? 'example.org' : 'example.com');

async function setScript(db: Db, accountId: number, script: string) {
  await sql`insert into filter_scripts (account_id, script, version) values (${accountId}, ${script}, 1)`.execute(
    db,
  );
}

export async function runFiltersBench(opts: {
  databaseUrl?: string;
  count?: number;
  apply?: number;
}): Promise<BenchRow[]> {
  const count = opts.count ?? 1000;
  const applyCount = opts.apply ?? 5000;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-filters-'));
  const openDb = (): Promise<Db> =>
    opts.databaseUrl
      ? openDatabase({ kind: 'postgres', url: opts.databaseUrl })
      : openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  let db = await openDb();
  await migrate(db);
  // Three kinds of mailbox side by side: no script, 20 header rules, 20 rules with a body test.
  const kinds = ['none', 'headers', 'body'] as const;
  type Kind = (typeof kinds)[number];
  const groups: Record<Kind, { id: number; email: string }[]> = { none: [], headers: [], body: [] };
  const script = twentyRuleScript();
  for (let i = 0; i < 3 * MAILBOXES + 1; i++) {
    const memberId = String(900_000_000_500 + i);
    const { account } = await ensureAccount(db, {
      memberId,
      name: `Filters ${i}`,
      mailDomain: 'mailroom.test',
    });
    groups[kinds[i % 3]!].push(account);
  }
  for (const a of groups.headers) await setScript(db, a.id, twentyRuleScript({ body: false }));
  for (const a of groups.body) await setScript(db, a.id, script);
  // The 31st mailbox (a 'none' one) is filled for the apply run.
  const applyAccount = groups.none.pop()!;
  // 100k messages of ~20 KB are twice the 1 GB quota: the apply mailbox may hold them all.
  await sql`update accounts set quota_limit_bytes = ${applyCount * 64 * 1024} where id = ${applyAccount.id}`.execute(
    db,
  );
  await db.destroy();

  // The filter's own work per message, in process (no database): what the script adds to a delivery's CPU.
  const filterMs: Record<Kind, number> = { none: 0, headers: 0, body: 0 };
  {
    const samples = await Promise.all(Array.from({ length: 300 }, (_, i) => message(i, 'x@mailroom.test')));
    const scripts = { headers: { source: twentyRuleScript({ body: false }) }, body: { source: script } };
    const context = {
      envelopeFrom: 'sender@example.org',
      envelopeTo: 'x@mailroom.test',
      mailboxes: async () => [],
    };
    for (const kind of ['headers', 'body'] as const) {
      for (const raw of samples.slice(0, 50)) await runOnMessage(scripts[kind], raw, context);
      const started = performance.now();
      for (const raw of samples) await runOnMessage(scripts[kind], raw, context);
      filterMs[kind] = (performance.now() - started) / samples.length;
    }
  }

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const rates: Record<Kind, number[]> = { none: [], headers: [], body: [] };
  // Server CPU per message: less at the mercy of a loaded machine than the rate.
  const cpu: Record<Kind, number> = { none: 0, headers: 0, body: 0 };
  try {
    server = await startServer({
      dataDir,
      ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
      // BENCH_CPU_PROF=<folder>: the server writes a CPU profile there (what a filtered delivery spends, by function).
      ...(process.env.BENCH_CPU_PROF
        ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] }
        : {}),
    });
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: server.smtpPort,
      ignoreTLS: true,
      pool: true,
      maxConnections: CONNECTIONS,
      maxMessages: Infinity,
    });
    const sendAll = async (to: (i: number) => string, n: number, offset: number) => {
      const raws = await Promise.all(Array.from({ length: n }, (_, i) => message(offset + i, to(i))));
      const started = performance.now();
      await Promise.all(
        raws.map((raw, i) =>
          transport.sendMail({ envelope: { from: 'sender@example.org', to: [to(i)] }, raw }),
        ),
      );
      return n / ((performance.now() - started) / 1000);
    };
    const to = (kind: Kind) => (i: number) => groups[kind][i % MAILBOXES]!.email;
    // Warm-up: connections, parse workers, query plans, the compiled scripts, the folders the rules create.
    for (const [k, kind] of kinds.entries()) await sendAll(to(kind), 40, k * 40);
    const perRound = Math.ceil(count / ROUNDS);
    const { pid } = server;
    for (let r = 0; r < ROUNDS; r++) {
      // The kinds take turns in a rotating order, so none is always first after a pause.
      const order = kinds.map((_, i) => kinds[(i + r) % kinds.length]!);
      for (const kind of order) {
        const k = kinds.indexOf(kind);
        const before = await cpuSecondsOf(pid);
        rates[kind].push(await sendAll(to(kind), perRound, 1000 + (r * kinds.length + k) * perRound));
        cpu[kind] += (await cpuSecondsOf(pid)) - before;
      }
    }
    // The mailbox the apply run works through.
    for (let sent = 0; sent < applyCount; sent += 500)
      await sendAll(() => applyAccount.email, Math.min(500, applyCount - sent), 100_000 + sent);
    transport.close();
    await server.stop();
    server = undefined;

    db = await openDb();
    // The script filed the messages to the apply mailbox; put them back in its Inbox (SQL, as a bench may).
    await sql`delete from filter_scripts where account_id = ${applyAccount.id}`.execute(db);
    await sql`
      update messages set folder_id = (select id from folders where account_id = ${applyAccount.id} and system = 'inbox'),
        uid = 1000000 + id, seen = false, flagged = false
      where account_id = ${applyAccount.id}`.execute(db);
    const inbox = await sql<{ id: number }>`
      select id from folders where account_id = ${applyAccount.id} and system = 'inbox'`.execute(db);
    await sql`update folders set uidnext = 2000000000, total_count = ${applyCount}, unread_count = ${applyCount}
      where id = ${inbox.rows[0]!.id}`.execute(db);
    await sql`insert into filter_runs (account_id, folder_id, script, dry_run, total)
      values (${applyAccount.id}, ${inbox.rows[0]!.id}, ${script}, false, ${applyCount})`.execute(db);
    const deps = {
      db,
      // As the server keeps them: small blobs in the database, larger ones in the folder.
      blobs: await openBlobStore(db, path.join(dataDir, 'blobs')),
      events: new InProcessEventBus(),
      log: pino({ level: 'silent' }),
    };
    const started = performance.now();
    while (await runFilterBatch(deps));
    const applySeconds = (performance.now() - started) / 1000;
    const run = await sql<{ state: string; done: number; moved: number }>`
      select state, done, moved from filter_runs where account_id = ${applyAccount.id}`.execute(db);
    await db.destroy();
    const outcome = run.rows[0]!;
    if (outcome.state !== 'done' || outcome.done !== applyCount)
      throw new Error(`apply run ${outcome.state} after ${outcome.done} of ${applyCount}`);
    // One message in four is from the domain the last rule files: a run that moved none read no message.
    if (outcome.moved < applyCount / 5)
      throw new Error(`apply run moved ${outcome.moved} of ${applyCount} messages: were they read?`);

    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const messages = perRound * ROUNDS;
    const cpuMs = (kind: Kind) => (cpu[kind] / messages) * 1000;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Each round against the baseline's same round (minutes apart at most), then the median of those: a machine
    // whose load swings moves both sides of a pair together.
    const against = (kind: Kind) => {
      const slower = median(rates[kind].map((rate, r) => 1 - rate / rates.none[r]!));
      const more = cpuMs(kind) / cpuMs('none') - 1;
      return {
        slower,
        note:
          `${(slower * 100).toFixed(1)} % slower (median of ${ROUNDS} paired rounds), server CPU ` +
          `${cpuMs(kind).toFixed(1)} ms/message (${(more * 100).toFixed(1)} % more); the filter's own work in ` +
          `process ${filterMs[kind].toFixed(2)} ms/message; rounds ${rates[kind].map((x) => x.toFixed(0)).join('/')}`,
      };
    };
    const headers = against('headers');
    const body = against('body');
    return [
      {
        name: 'SMTP delivery without a filter script',
        value: mean(rates.none),
        unit: 'messages/s',
        target: '— (the baseline of the next rows)',
        note:
          `${messages} × ~20 KB to ${MAILBOXES} mailboxes over ${CONNECTIONS} connections, server CPU ` +
          `${cpuMs('none').toFixed(1)} ms/message; rounds ${rates.none.map((x) => x.toFixed(0)).join('/')}`,
      },
      {
        name: 'SMTP delivery with a 20-rule script (sender, recipient, subject tests)',
        value: mean(rates.headers),
        unit: 'messages/s',
        target: 'at most 10 % slower than without',
        ok: headers.slower <= 0.1,
        note: `${headers.note}; one message in four filed by a rule`,
      },
      {
        name: 'SMTP delivery with a 20-rule script with a body test',
        value: mean(rates.body),
        unit: 'messages/s',
        target: 'at most 10 % slower than without',
        ok: body.slower <= 0.1,
        note: `${body.note}; every message's parts read`,
      },
      {
        name: `apply a 20-rule filter to a folder of ${applyCount} messages`,
        value: applyCount / applySeconds,
        unit: 'messages/s',
        target: '— (a background job in batches of 200)',
        note: `${applySeconds.toFixed(1)} s in all, ${outcome.moved} moved, in process without HTTP`,
      },
    ];
  } finally {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 1000);
  const apply = Number(process.argv[3] ?? 5000);
  const rows = await runFiltersBench({
    count,
    apply,
    ...(process.argv[4] ? { databaseUrl: process.argv[4] } : {}),
  });
  for (const r of rows)
    console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit} (target ${r.target}; ${r.note})`);
}
