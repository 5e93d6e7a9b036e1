/**
 * What one mailbox costs PostgreSQL (issue 19, docs/SCALING.md): the figures the 10-million-mailbox plan is
 * extrapolated from. The server runs as `npm start` runs it (server-process.ts) on a fresh PostgreSQL database, its
 * connections going through a **counting proxy** on loopback that reads the frontend protocol (simple Query, and the
 * Parse/Bind/Execute of the extended protocol with pg's named statements) and logs every statement executed, with the
 * connection and the time. pg_stat_statements would need shared_preload_libraries and a restart of a PostgreSQL other
 * engineers share; the proxy needs neither and sees exactly what the server sends.
 *
 * 1. Two members sign up over HTTP (the embedded IdP). 2. Member A's mailbox is filled over SMTP from the shared corpus
 * (gen-mailbox.mjs, seed 42) with bench/mailbox.ts's fill (4 connections). 3. The background (jobs, upkeep) is counted
 * over an idle window and subtracted from each action's window. 4. Each user action runs `REPEAT` times, one at a time,
 * and its statements are counted: open the Inbox (GET folders + the first page), open a message, search, send to a
 * local member (POST messages/send, delivered into B's Inbox), receive one message over SMTP (a new connection per
 * message, as an MX sends). 5. After a VACUUM ANALYZE: each table's rows and pg_total_relation_size, and whether it
 * carries account_id (the sharding key), from the catalogue.
 *
 * node --conditions=@mailroom/source --import tsx bench/scaling.ts [messages=5000] [adminUrl]
 * (adminUrl: a PostgreSQL superuser URL, default postgres://postgres@127.0.0.1:5432/postgres; a database
 * mailroom_scaling_<pid> is made there and dropped at the end unless BENCH_KEEP_DATA=1.)
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { freePort } from '../test-support/ports.js';
import { apiClient, corpus, fill } from './mailbox.js';
import { cpuSecondsOf, startServer } from './server-process.js';
import { signUp } from './ws.js';

const REPEAT = 20;
const SETTLE_MS = 400;

interface Statement {
  at: number;
  conn: number;
  text: string;
  /** The bound parameters (text format, as node-pg sends them); null for SQL NULL. */
  params?: (string | null)[];
}

/** A TCP proxy to PostgreSQL that logs every statement the clients execute. */
async function countingProxy(target: { host: string; port: number }) {
  const log: Statement[] = [];
  let connections = 0;
  let peakConnections = 0;
  let open = 0;
  const server = net.createServer((client) => {
    const conn = ++connections;
    open++;
    peakConnections = Math.max(peakConnections, open);
    const upstream = net.connect(target.port, target.host);
    const prepared = new Map<string, string>();
    const portals = new Map<string, { text: string; params: (string | null)[] }>();
    let pending: Buffer = Buffer.alloc(0);
    let startup = true;
    const cstring = (buf: Buffer, at: number): [string, number] => {
      const end = buf.indexOf(0, at);
      return [buf.toString('utf8', at, end), end + 1];
    };
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      for (;;) {
        if (startup) {
          if (pending.length < 8) break;
          const len = pending.readInt32BE(0);
          if (pending.length < len) break;
          const code = pending.readInt32BE(4);
          pending = pending.subarray(len);
          if (code !== 80877103 && code !== 80877104) startup = false; // SSL/GSS requests come before startup
          continue;
        }
        if (pending.length < 5) break;
        const type = String.fromCharCode(pending[0]!);
        const len = pending.readInt32BE(1);
        if (pending.length < len + 1) break;
        const body = pending.subarray(5, len + 1);
        if (type === 'Q') log.push({ at: performance.now(), conn, text: cstring(body, 0)[0] });
        else if (type === 'P') {
          const [name, next] = cstring(body, 0);
          prepared.set(name, cstring(body, next)[0]);
        } else if (type === 'B') {
          const [portal, next] = cstring(body, 0);
          const [statement, afterName] = cstring(body, next);
          let at = afterName;
          at += 2 + 2 * body.readInt16BE(at); // parameter format codes (node-pg: all text)
          const params: (string | null)[] = [];
          for (let n = body.readInt16BE(at), i = 0, p = at + 2; i < n; i++) {
            const len = body.readInt32BE(p);
            params.push(len < 0 ? null : body.toString('utf8', p + 4, p + 4 + len));
            p += 4 + Math.max(0, len);
          }
          portals.set(portal, { text: prepared.get(statement) ?? '?', params });
        } else if (type === 'E') {
          const bound = portals.get(cstring(body, 0)[0]);
          log.push({ at: performance.now(), conn, text: bound?.text ?? '?', params: bound?.params ?? [] });
        }
        pending = pending.subarray(len + 1);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const close = () => {
      if (client.destroyed && upstream.destroyed) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => {
      open--;
      close();
    });
    upstream.on('close', close);
    client.on('error', close);
    upstream.on('error', close);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    log,
    stats: () => ({ connections, peakConnections, open }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Kind = 'read' | 'write' | 'tx' | 'other';
function kindOf(text: string): Kind {
  const t = text.trim().toLowerCase();
  if (/^(begin|commit|rollback|savepoint|release|start transaction)\b/.test(t)) return 'tx';
  if (/\b(insert\s+into|update\s+"?\w+"?\s+set|delete\s+from)\b/.test(t)) return 'write';
  if (/^(select|with|values)\b/.test(t)) return 'read';
  return 'other';
}

/** The tables a statement writes (insert into / update / delete from). */
function writtenTables(text: string): string[] {
  const tables = new Set<string>();
  const t = text.toLowerCase();
  for (const m of t.matchAll(/\b(?:insert\s+into|delete\s+from)\s+"?(\w+)"?/g)) tables.add(m[1]!);
  for (const m of t.matchAll(/\bupdate\s+"?(\w+)"?(?:\s+as\s+\w+|\s+\w+)?\s+set\b/g)) tables.add(m[1]!);
  return [...tables];
}

interface Counted {
  statements: number;
  reads: number;
  writes: number;
  transactions: number;
  other: number;
  tables: Map<string, number>;
}

function count(statements: Statement[]): Counted {
  const c: Counted = { statements: 0, reads: 0, writes: 0, transactions: 0, other: 0, tables: new Map() };
  for (const s of statements) {
    c.statements++;
    const kind = kindOf(s.text);
    if (kind === 'read') c.reads++;
    else if (kind === 'write') {
      c.writes++;
      for (const t of writtenTables(s.text)) c.tables.set(t, (c.tables.get(t) ?? 0) + 1);
    } else if (kind === 'tx') {
      if (/^\s*begin/i.test(s.text)) c.transactions++;
    } else c.other++;
  }
  return c;
}

async function main() {
  const messages = Number(process.argv[2] ?? 5000);
  const adminUrl = process.argv[3] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new URL(adminUrl);
  const dbName = `mailroom_scaling_${process.pid}`;
  const adminClient = new pg.Client({ connectionString: adminUrl });
  await adminClient.connect();
  await adminClient.query(`create database ${dbName}`);
  const proxy = await countingProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
  const viaProxy = new URL(adminUrl);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  viaProxy.pathname = `/${dbName}`;
  const directUrl = new URL(adminUrl);
  directUrl.pathname = `/${dbName}`;

  const { files, bytes: corpusBytes } = await corpus(messages);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-scaling-'));
  const server = await startServer({ dataDir, databaseUrl: viaProxy.href });
  const out: string[] = [];
  const print = (line = '') => {
    out.push(line);
    console.log(line);
  };
  try {
    const mark = () => ({ i: proxy.log.length, t: performance.now() });
    const since = (m: { i: number }) => proxy.log.slice(m.i);

    // Background: what the jobs and the upkeep run by themselves.
    await new Promise((r) => setTimeout(r, 3000));
    const idle = mark();
    const idleCpu = await cpuSecondsOf(server.pid);
    await new Promise((r) => setTimeout(r, 15_000));
    const idleCpuPerMs = ((await cpuSecondsOf(server.pid)) - idleCpu) / (performance.now() - idle.t);
    const background = since(idle);
    const backgroundPerMs = background.length / (performance.now() - idle.t);

    const signUpMark = mark();
    const a = await signUp(server.http);
    const signUpStatements = count(since(signUpMark));
    const b = await signUp(server.http);
    const apiA = apiClient(server.http, a.cookie);
    const apiB = apiClient(server.http, b.cookie);

    // Fill over SMTP.
    const fillMark = mark();
    const fillCpu = await cpuSecondsOf(server.pid);
    const rate = await fill(server.smtpPort, files, a.email);
    const fillMs = performance.now() - fillMark.t;
    const fillCount = count(since(fillMark));
    const fillCpuMs = ((await cpuSecondsOf(server.pid)) - fillCpu) * 1000;

    const { folders } = await apiA<{ folders: { id: number; system: string | null; total: number }[] }>(
      'GET',
      'folders',
    );
    const inbox = folders.find((f) => f.system === 'inbox')!;
    if (inbox.total !== files.length) throw new Error(`the Inbox holds ${inbox.total} of ${files.length}`);
    const firstPage = await apiA<{ messages: { uid: number }[] }>(
      'GET',
      `messages/folder/${inbox.id}?page=1&limit=50`,
    );
    const uids = firstPage.messages.map((m) => m.uid);

    /** Statements per run of `action`, the background of its window subtracted (median of REPEAT runs). */
    const measure = async (action: (run: number) => Promise<unknown>) => {
      await action(-1); // warm: named statements prepared, caches filled
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const runs: { c: Counted; bg: number; ms: number }[] = [];
      const cpu = await cpuSecondsOf(server.pid);
      let busyMs = 0;
      for (let run = 0; run < REPEAT; run++) {
        const m = mark();
        await action(run);
        const ms = performance.now() - m.t;
        busyMs += ms;
        await new Promise((r) => setTimeout(r, SETTLE_MS));
        runs.push({ c: count(since(m)), bg: backgroundPerMs * (performance.now() - m.t), ms });
        // BENCH_SQL=1 prints the statements of each action's first run (to see which account each one filters by).
        if (process.env.BENCH_SQL && run === 0)
          for (const st of since(m))
            console.error(`  [${st.conn}] ${st.text.replace(/\s+/g, ' ').slice(0, 400)}`);
      }
      const median = (f: (r: (typeof runs)[number]) => number) => {
        const v = runs.map(f).sort((x, y) => x - y);
        return v[Math.floor(v.length / 2)]!;
      };
      // Server CPU per action: the whole window's CPU (settling included) less the idle rate over the settling.
      const cpuMs = ((await cpuSecondsOf(server.pid)) - cpu) * 1000;
      const tables = new Map<string, number>();
      for (const r of runs) for (const [t, n] of r.c.tables) tables.set(t, (tables.get(t) ?? 0) + n / REPEAT);
      return {
        statements: median((r) => r.c.statements),
        reads: median((r) => r.c.reads),
        writes: median((r) => r.c.writes),
        transactions: median((r) => r.c.transactions),
        background: runs.reduce((s, r) => s + r.bg, 0) / REPEAT,
        min: Math.min(...runs.map((r) => r.c.statements)),
        max: Math.max(...runs.map((r) => r.c.statements)),
        ms: median((r) => r.ms),
        cpuMs: cpuMs / REPEAT,
        busyMs: busyMs / REPEAT,
        tables,
      };
    };

    const content = `<p>${'Lorem ipsum dolor sit amet, привет мир. '.repeat(50)}</p>`;
    const smtpOne = async (run: number) => {
      const transport = nodemailer.createTransport({
        host: '127.0.0.1',
        port: server.smtpPort,
        ignoreTLS: true,
      });
      const info = await transport.sendMail({
        envelope: { from: 'bench@example.org', to: [a.email] },
        // A corpus message under a new Message-ID: the same one again would be dropped as a duplicate.
        raw: Buffer.from(
          (await fs.readFile(files[(run + files.length) % files.length]!, 'latin1')).replace(
            /^Message-ID:[^\r\n]*(\r?\n[ \t][^\r\n]*)*/im,
            `Message-ID: <scaling-${run}-${process.pid}@bench.example>`,
          ),
          'latin1',
        ),
      });
      transport.close();
      if (info.accepted.length !== 1) throw new Error(`refused: ${info.response}`);
    };
    const actions: [string, (run: number) => Promise<unknown>][] = [
      [
        'open the Inbox (GET folders + GET messages/folder/:id page 1, 50 a page)',
        async () => {
          await apiA('GET', 'folders');
          await apiA('GET', `messages/folder/${inbox.id}?page=1&limit=50`);
        },
      ],
      [
        'open a message (GET messages/:folder/:uid)',
        (run) => apiA('GET', `messages/${inbox.id}/${uids[(run + 1) % uids.length]}`),
      ],
      [
        'search, one word in subject and body (POST messages/search)',
        () =>
          apiA('POST', 'messages/search', {
            text: 'Kestrel',
            fields: ['subject', 'body'],
            folder_id: inbox.id,
            page: 1,
            limit: 30,
          }),
      ],
      [
        'search, all folders, three fields (POST messages/search)',
        () => apiA('POST', 'messages/search', { text: 'Kestrel status', page: 1, limit: 30 }),
      ],
      [
        'send to a local member (POST messages/send: Sent copy, outbox, delivery into B)',
        (run) =>
          apiA('POST', 'messages/send', {
            subject: `Scaling ${run} — проверка`,
            fields: { from: { email: a.email, name: 'Bench User' }, to: [{ email: b.email, name: '' }] },
            content,
            content_type: 'text/html',
          }),
      ],
      ['receive one message over SMTP (a new connection each, 1 recipient)', smtpOne],
    ];
    const results: [string, Awaited<ReturnType<typeof measure>>][] = [];
    for (const [name, action] of actions) results.push([name, await measure(action)]);

    const bInbox = (
      await apiB<{ folders: { system: string | null; total: number }[] }>('GET', 'folders')
    ).folders.find((f) => f.system === 'inbox')!;
    if (bInbox.total < REPEAT) throw new Error(`B received ${bInbox.total} of ${REPEAT + 1} sent`);

    // Storage, from PostgreSQL directly (not through the proxy), the server idle.
    const direct = new pg.Client({ connectionString: directUrl.href });
    await direct.connect();
    await direct.query('vacuum analyze');
    const { rows: tables } = await direct.query<{
      name: string;
      bytes: string;
      heap: string;
      has_account: boolean;
    }>(
      `select c.relname as name, pg_total_relation_size(c.oid) as bytes, pg_relation_size(c.oid) as heap,
              exists (select 1 from information_schema.columns k
                       where k.table_schema = 'public' and k.table_name = c.relname and k.column_name = 'account_id') as has_account
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc`,
    );
    const counts = new Map<string, number>();
    for (const t of tables) {
      const { rows } = await direct.query<{ n: string }>(`select count(*) as n from "${t.name}"`);
      counts.set(t.name, Number(rows[0]!.n));
    }
    const { rows: dbSize } = await direct.query<{ size: string }>(
      'select pg_database_size(current_database()) as size',
    );
    const { rows: blobRows } = await direct
      .query<{ n: string; bytes: string }>(
        `select count(*) as n, coalesce(sum(octet_length(data)), 0) as bytes from blobs where data is not null`,
      )
      .catch(() => ({ rows: [{ n: 'n/a', bytes: '0' }] }));
    await direct.end();
    let blobFiles = 0;
    let blobFileBytes = 0;
    for (const entry of await fs
      .readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true })
      .catch(() => []))
      if (entry.isFile() && !entry.parentPath.includes('.spool')) {
        blobFiles++;
        blobFileBytes += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
      }

    // Does a member's search depend on the other mailboxes in the database? The search's count statement, exactly as
    // the server sent it (text and parameters), under EXPLAIN ANALYZE: the rows its full-text subquery returns, with
    // member B's mailbox empty and then filled with the same corpus.
    const searchMark = mark();
    await apiA('POST', 'messages/search', {
      text: 'Kestrel',
      fields: ['subject', 'body'],
      folder_id: inbox.id,
      page: 1,
      limit: 30,
    });
    const searchCount = since(searchMark).find((st) =>
      /select count\(\*\).*search_vector @@/is.test(st.text),
    );
    const explainSearch = async () => {
      if (!searchCount) return null;
      const client = new pg.Client({ connectionString: directUrl.href });
      await client.connect();
      try {
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode; 'Execution Time': number }] }>(
          `explain (analyze, format json) ${searchCount.text}`,
          searchCount.params,
        );
        const plan = rows[0]!['QUERY PLAN'][0];
        const nodes: PlanNode[] = [];
        const walk = (n: PlanNode) => {
          nodes.push(n);
          for (const c of n.Plans ?? []) walk(c);
        };
        walk(plan.Plan);
        const sub = nodes.find(
          (n) => n['Relation Name'] === 'message_contents' || n['Index Name'] === 'message_contents_search',
        );
        return {
          subqueryRows: sub?.['Actual Rows'] ?? NaN,
          countRows: nodes[0]!['Actual Rows'],
          ms: plan['Execution Time'],
        };
      } finally {
        await client.end();
      }
    };
    const searchAlone = await explainSearch();
    const bFillRate = await fill(server.smtpPort, files, b.email);
    const searchBeside = await explainSearch();

    const stored = files.length + 2 * (REPEAT + 1) + (REPEAT + 1); // corpus + SMTP singles; sends: Sent copy and B's copy
    const mib = (n: number) => (n / 2 ** 20).toFixed(2);
    print(
      `## Measured ${new Date().toISOString().slice(0, 16)}Z: ${files.length} messages, PostgreSQL ${(await pgVersion(adminClient)).slice(0, 5)}`,
    );
    print();
    print(
      `Corpus ${files.length} messages, ${mib(corpusBytes)} MiB raw (${Math.round(corpusBytes / files.length)} bytes/message average). ` +
        `Messages stored at the end: ${counts.get('messages')} (${stored} expected: the corpus, ${REPEAT + 1} SMTP singles, ` +
        `${REPEAT + 1} sends × Sent copy + B's copy).`,
    );
    print(
      `Fill over SMTP: ${rate.toFixed(0)} messages/s (4 connections, ${(fillMs / 1000).toFixed(0)} s); ` +
        `statements ${fillCount.statements} = ${(fillCount.statements / files.length).toFixed(2)} per message ` +
        `(${(fillCount.writes / files.length).toFixed(2)} writes, ${(fillCount.transactions / files.length).toFixed(2)} transactions; ` +
        `background in the window ≈ ${(backgroundPerMs * fillMs).toFixed(0)}); server CPU ${(fillCpuMs / files.length).toFixed(1)} ms/message.`,
    );
    print(
      `Background (jobs, upkeep, no user): ${(backgroundPerMs * 1000).toFixed(2)} statements/s per node over 15 s idle; server CPU ${(idleCpuPerMs * 1e5).toFixed(2)} % of a core.`,
    );
    print(
      `Sign-up (embedded IdP + first session + account creation): ${signUpStatements.statements} statements, ${signUpStatements.writes} writes.`,
    );
    print(
      `Connections: ${proxy.stats().connections} opened through the proxy in all, at most ${proxy.stats().peakConnections} at once (pool max 10 + 1 LISTEN).`,
    );
    print();
    print(
      '| user action | statements (median of ' +
        REPEAT +
        ', min–max) | reads | writes | transactions | background in window | tables written per action | time (median) | server CPU per action |',
    );
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const [name, r] of results)
      print(
        `| ${name} | **${r.statements}** (${r.min}–${r.max}) | ${r.reads} | ${r.writes} | ${r.transactions} | ${r.background.toFixed(1)} | ` +
          `${
            [...r.tables]
              .sort((x, y) => y[1] - x[1])
              .map(([t, n]) => `${t} ${n.toFixed(1)}`)
              .join(', ') || '—'
          } | ${r.ms.toFixed(0)} ms | ${Math.max(0, r.cpuMs - idleCpuPerMs * 1000 * SETTLE_MS).toFixed(1)} ms |`,
      );
    print();
    const msgCount = counts.get('messages') ?? 1;
    const total = tables.reduce((s, t) => s + Number(t.bytes), 0);
    print(
      `Database ${mib(Number(dbSize[0]!.size))} MiB (pg_database_size; tables with indexes and TOAST ${mib(total)} MiB) = ` +
        `**${Math.round(total / msgCount)} bytes per stored message** in tables. Blobs outside the database (the S3 share): ` +
        `${blobFiles} files, ${mib(blobFileBytes)} MiB = ${Math.round(blobFileBytes / msgCount)} bytes/message; small blobs inside (blobs.data): ${blobRows[0]!.n} rows, ${mib(Number(blobRows[0]!.bytes))} MiB.`,
    );
    print();
    print(
      '| table | account_id | rows | rows per stored message | total size (MiB) | heap (MiB) | bytes per stored message |',
    );
    print('| --- | --- | --- | --- | --- | --- | --- |');
    for (const t of tables) {
      const rows = counts.get(t.name)!;
      if (!rows && Number(t.bytes) <= 65_536) continue;
      print(
        `| ${t.name} | ${t.has_account ? 'yes' : 'no'} | ${rows} | ${(rows / msgCount).toFixed(3)} | ${mib(Number(t.bytes))} | ${mib(Number(t.heap))} | ${Math.round(Number(t.bytes) / msgCount)} |`,
      );
    }
    const empty = tables.filter((t) => !counts.get(t.name) && Number(t.bytes) <= 65_536).map((t) => t.name);
    print();
    print(`Empty (≤ 64 KiB, not listed): ${empty.join(', ')}.`);
    print();
    const probe = (r: Awaited<ReturnType<typeof explainSearch>>) =>
      r
        ? `its full-text subquery returned ${r.subqueryRows} rows for ${r.countRows} counted, ${r.ms.toFixed(1)} ms`
        : 'the statement was not seen';
    print(
      `Search and the other mailboxes (EXPLAIN ANALYZE of the search's count statement as the server sent it, member A, ` +
        `"Kestrel" in subject and body, the Inbox): B's mailbox nearly empty: ${probe(searchAlone)}; after B received ` +
        `the same ${files.length} messages (${bFillRate.toFixed(0)} messages/s): ${probe(searchBeside)}.`,
    );
    await fs.writeFile(path.join(os.tmpdir(), `mailroom-scaling-${files.length}.md`), out.join('\n') + '\n');
  } finally {
    await server.stop();
    await proxy.close();
    if (process.env.BENCH_KEEP_DATA) console.log(`kept: database ${dbName}, data folder ${dataDir}`);
    else {
      await adminClient.query(`drop database if exists ${dbName} with (force)`);
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    await adminClient.end();
  }
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  Plans?: PlanNode[];
}

async function pgVersion(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ v: string }>("select current_setting('server_version') as v");
  return rows[0]!.v;
}

await main();
