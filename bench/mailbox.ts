/**
 * What a user feels on a real mailbox (#13). The server runs as `npm start` runs it (apps/server/dist/main.js, see
 * server-process.ts) on a fresh data folder; a member signs up through the embedded IdP over HTTP; the mailbox is
 * filled **over SMTP** from the shared corpus (../shared/corpus/gen-mailbox.mjs, seed 42: English and Russian
 * work mail, newsletters, lists, invoices with attachments, threads) with 4 connections, as an MX delivers; then
 * requests are timed **over HTTP with the session cookie**, client side (sent → body read), p50 and p90 of
 * `RUNS` after a warm-up. The product's own upkeep runs while the bench waits (on PGlite a pass a minute): the
 * bench itself runs no maintenance, so the figures are those of an install left to itself.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/mailbox.ts [messages] [databaseUrl]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import pg from 'pg';
import type { BenchRow } from './types.js';
import { corpus } from '../test-support/corpus.js';
import { grepHits, type GrepField } from './corpus-grep.js';
import { cpuSecondsOf, memoryOf, startServer } from './server-process.js';
import { signUp } from './ws.js';

const CONNECTIONS = 4;
const IN_FLIGHT = 32;
const RUNS = 30;
const WARM_UP = 3;
export { corpus };

/** Bytes a folder takes on disk: the blocks of its files and of its folders, as du counts them. */
async function diskUsage(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    const stat = await fs.lstat(path.join(entry.parentPath, entry.name)).catch(() => null);
    total += (stat?.blocks ?? 0) * 512;
  }
  return total;
}

/** The database's share of the disk: the PGlite folder (its WAL apart), or PostgreSQL's pg_database_size. */
async function databaseDisk(
  dataDir: string,
  databaseUrl?: string,
): Promise<{ bytes: number; wal: number | null }> {
  if (!databaseUrl) {
    const dir = path.join(dataDir, 'pglite');
    return { bytes: await diskUsage(dir), wal: await diskUsage(path.join(dir, 'pg_wal')) };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>(
      'select pg_database_size(current_database()) as size',
    );
    return { bytes: Number(rows[0]!.size), wal: null };
  } finally {
    await client.end();
  }
}

export interface Timing {
  p50: number;
  p90: number;
  p95: number;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** Times `request` over `RUNS` runs after a warm-up; `request` returns the response body read to its end. */
async function time(request: (run: number) => Promise<unknown>): Promise<Timing> {
  for (let i = 0; i < WARM_UP; i++) await request(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await request(i);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p90: percentile(times, 0.9), p95: percentile(times, 0.95) };
}

/** An HTTP client with the member's session, as the web app calls the API. */
export function apiClient(http: string, cookie: string) {
  return async <T>(method: 'GET' | 'POST', pathname: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${http}/api/v1/${pathname}`, {
      method,
      headers: {
        cookie,
        accept: 'application/json',
        ...(body === undefined
          ? {}
          : { 'content-type': 'application/json', 'x-mailroom-csrf': '1', origin: http }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as T;
  };
}

/** Sends every file over SMTP to `to`, `IN_FLIGHT` at a time over `CONNECTIONS` connections; messages/s. */
export async function fill(smtpPort: number, files: string[], to: string): Promise<number> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
  });
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const raw = await fs.readFile(files[i]!);
      const info = await transport.sendMail({ envelope: { from: 'bench@example.org', to: [to] }, raw });
      if (info.accepted.length !== 1) throw new Error(`${files[i]} refused: ${info.response}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  transport.close();
  return files.length / ((performance.now() - started) / 1000);
}

const row = (name: string, t: Timing, target: number, note = ''): BenchRow => ({
  name,
  value: t.p50,
  unit: 'ms p50',
  target: `≤ ${target} ms`,
  ok: t.p50 <= target,
  note: `p90 ${t.p90.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms${note ? `; ${note}` : ''}`,
  p95: t.p95,
});

export async function runMailboxBench(opts: { databaseUrl?: string; messages: number }): Promise<BenchRow[]> {
  const { dir: corpusDir, files, bytes: corpusBytes } = await corpus(opts.messages);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-mailbox-'));
  const server = await startServer({
    dataDir,
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
  });
  const size = `${Math.round(opts.messages / 1000)}k`;
  let restarted: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const { cookie, email } = await signUp(server.http);
    const api = apiClient(server.http, cookie);

    const cpuBefore = await cpuSecondsOf(server.pid);
    const rate = await fill(server.smtpPort, files, email);
    const cpuPerMessage = ((await cpuSecondsOf(server.pid)) - cpuBefore) / files.length;
    const rssAfterFill = (await memoryOf(server.pid)).rss;

    const { folders } = await api<{ folders: { id: number; system: string | null; total: number }[] }>(
      'GET',
      'folders',
    );
    const inbox = folders.find((f) => f.system === 'inbox')!;
    if (inbox.total !== files.length) throw new Error(`the Inbox holds ${inbox.total} of ${files.length}`);
    const page = (n: number) => () => api('GET', `messages/folder/${inbox.id}?page=${n}&limit=30`);
    const rightAfterFill = await time(page(1));
    // An install left to itself: the product's own upkeep (a pass a minute where no autovacuum runs) or
    // PostgreSQL's autovacuum (its naptime is a minute) has had its turn.
    await new Promise((resolve) => setTimeout(resolve, 65_000));

    const first = await api<{ messages: { uid: number }[] }>(
      'GET',
      `messages/folder/${inbox.id}?page=1&limit=200`,
    );
    const uids = first.messages.map((m) => m.uid);
    const rows: BenchRow[] = [
      {
        name: `SMTP ingest of the corpus (${size}), 4 connections`,
        value: rate,
        unit: 'messages/s',
        target: opts.databaseUrl ? '≥ 300 messages/s' : '≥ 100 messages/s',
        ok: rate >= (opts.databaseUrl ? 300 : 100),
        note: `server CPU ${(cpuPerMessage * 1000).toFixed(1)} ms/message; RSS after the fill ${(rssAfterFill / 2 ** 20).toFixed(0)} MB`,
      },
      row(`Inbox page 1 over HTTP, right after the fill (${size})`, rightAfterFill, 5),
      { ...row(`Inbox page 1 over HTTP (${size})`, await time(page(1)), 5), figure: 'inbox-page' },
      row(`Inbox page 50 over HTTP (${size})`, await time(page(50)), 5),
      row(
        `open a message over HTTP (${size})`,
        await time((run) => api('GET', `messages/${inbox.id}/${uids[(run + uids.length) % uids.length]}`)),
        5,
      ),
    ];
    for (const [setting, name] of [
      ['unread_first', 'Inbox page 1, unread first'],
      ['message_thread', 'Inbox page 1 as chains'],
    ] as const) {
      await api('POST', 'user/settings', { [setting]: true });
      rows.push(row(`${name} over HTTP (${size})`, await time(page(1)), 5));
      await api('POST', 'user/settings', { [setting]: false });
    }
    // Search as the search line sends it (the words in the ticked fields, any of them matching), 30 a page.
    // Without fields the search looks for words in the subject, the sender and the body (search.query.ts).
    const searches: [string, { text: string; fields?: GrepField[] }, boolean][] = [
      ['one English word, subject and body', { text: 'Kestrel', fields: ['subject', 'body'] }, true],
      ['one Russian word, subject and body', { text: 'отчёт', fields: ['subject', 'body'] }, true],
      ['two words', { text: 'Kestrel status' }, true],
      ['sender', { text: 'olga.ivanova@corp.example', fields: ['from'] }, true],
      ['subject only', { text: 'Kestrel', fields: ['subject'] }, true],
      ['all folders', { text: 'Kestrel' }, false],
    ];
    const expected = await grepHits(
      corpusDir,
      files,
      searches.map(([, q]) => ({
        text: q.text,
        fields: q.fields ?? ['subject', 'from', 'body'],
        addressPiece: q.fields?.includes('from') ?? false,
      })),
    );
    for (const [i, [name, query, inInbox]] of searches.entries()) {
      const request = { ...query, ...(inInbox ? { folder_id: inbox.id } : {}), page: 1, limit: 30 };
      const { total } = await api<{ total: number }>('POST', 'messages/search', request);
      const timing = await time(() => api('POST', 'messages/search', request));
      const grep = expected[i]!;
      const r = row(
        `search, ${name}, over HTTP (${size})`,
        timing,
        50,
        `${total} hits; the corpus grep finds ${grep}${total === grep ? '' : ' — **differs**'}`,
      );
      rows.push({ ...r, ok: r.ok && total === grep, figure: 'search' });
    }

    const blobBytes = await diskUsage(path.join(dataDir, 'blobs'));
    const database = await databaseDisk(dataDir, opts.databaseUrl);
    const disk = blobBytes + database.bytes;
    const mib = (n: number) => `${(n / 2 ** 20).toFixed(0)} MiB`;
    rows.push({
      name: `disk after the fill: blobs + database, against the raw mail (${size})`,
      value: disk / corpusBytes,
      unit: '× the raw mail',
      target: '≤ 1.5 ×',
      ok: disk <= 1.5 * corpusBytes,
      note:
        `${Math.round(disk / files.length)} bytes/message; raw mail ${mib(corpusBytes)}, blobs ${mib(blobBytes)}, ` +
        `database ${mib(database.bytes)}${database.wal === null ? '' : ` (WAL ${mib(database.wal)})`}`,
    });
    // What the RSS holds, from the server's own Prometheus metrics: the JavaScript heap, memory V8 accounts outside it
    // (Buffers), and the rest (code, thread stacks and heaps, PGlite's WebAssembly memory, which never shrinks).
    const metrics = await (await fetch(server.metrics)).text();
    const metric = (name: string) =>
      Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(metrics)?.[1] ?? NaN) / 2 ** 20;
    const rss = (await memoryOf(server.pid)).rss;
    rows.push({
      name: `server memory after the fill and the reads (RSS, ${size})`,
      figure: 'rss-after-fill',
      value: rss / 2 ** 20,
      unit: 'MB',
      target: opts.databaseUrl ? '≤ 400 MB' : '≤ 400 MB (PGlite)',
      ok: rss <= 400 * 2 ** 20,
      note:
        `JavaScript heap ${metric('nodejs_heap_size_total_bytes').toFixed(0)} MB, Buffers and other external ` +
        `${metric('nodejs_external_memory_bytes').toFixed(0)} MB, the rest (code, WebAssembly memory, threads) ` +
        `${(rss / 2 ** 20 - metric('nodejs_heap_size_total_bytes') - metric('nodejs_external_memory_bytes')).toFixed(0)} MB`,
    });
    // Idle: the parse workers end after 30 s without work (mailbox/parse/parse-pool.ts).
    await new Promise((resolve) => setTimeout(resolve, 35_000));
    const idle = (await memoryOf(server.pid)).rss;
    const idleTarget = opts.databaseUrl ? 150 : 400;
    rows.push({
      name: `server memory idle, 35 s after the reads (RSS, ${size})`,
      value: idle / 2 ** 20,
      unit: 'MB',
      target: `≤ ${idleTarget} MB`,
      ok: idle <= idleTarget * 2 ** 20,
    });
    // At rest: a server stopping takes a checkpoint (PostgreSQL's shutdown checkpoint; PGlite's on close), after which
    // the log holds only what the next start needs — the disk a mailbox takes between uses.
    await server.stop();
    const restBlobs = await diskUsage(path.join(dataDir, 'blobs'));
    const rest = await databaseDisk(dataDir, opts.databaseUrl);
    rows.push({
      name: `disk at rest (the server stopped): blobs + database, against the raw mail (${size})`,
      figure: 'disk',
      value: (restBlobs + rest.bytes) / corpusBytes,
      unit: '× the raw mail',
      target: '≤ 1.5 ×',
      ok: restBlobs + rest.bytes <= 1.5 * corpusBytes,
      note:
        `${Math.round((restBlobs + rest.bytes) / files.length)} bytes/message; blobs ${mib(restBlobs)}, ` +
        `database ${mib(rest.bytes)}${rest.wal === null ? '' : ` (WAL ${mib(rest.wal)})`}`,
    });
    // Started again on the filled data, as after an upgrade or a reboot: on PGlite its memory is then sized to the
    // grown database (core/db/pglite-open.ts); the RSS once settled, and the reads again with that memory.
    restarted = await startServer({
      dataDir,
      ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
    });
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const afterRestart = (await memoryOf(restarted.pid)).rss;
    const again = apiClient(restarted.http, cookie);
    const pageAgain = () => again('GET', `messages/folder/${inbox.id}?page=1&limit=30`);
    const buffers = opts.databaseUrl
      ? ''
      : `; PGlite's shared_buffers ${
          Number(
            /^mailroom_pglite_shared_buffers_bytes ([0-9.e+]+)$/m.exec(
              await (await fetch(restarted.metrics)).text(),
            )?.[1],
          ) /
          2 ** 20
        } MB (PGLITE_SHARED_BUFFERS ${process.env.PGLITE_SHARED_BUFFERS ?? 'auto'})`;
    rows.push({
      name: `server memory idle after a restart on the filled data (RSS, ${size})`,
      figure: 'idle-after-restart',
      value: afterRestart / 2 ** 20,
      unit: 'MB',
      target: opts.databaseUrl ? '≤ 150 MB' : '≤ 200 MB',
      ok: afterRestart <= (opts.databaseUrl ? 150 : 200) * 2 ** 20,
      note: `10 s after the start${buffers}`,
    });
    rows.push(row(`Inbox page 1 over HTTP after the restart (${size})`, await time(pageAgain), 5));
    for (const [name, query, inInbox] of searches.slice(0, 2)) {
      const request = { ...query, ...(inInbox ? { folder_id: inbox.id } : {}), page: 1, limit: 30 };
      rows.push(
        row(
          `search, ${name}, over HTTP after the restart (${size})`,
          await time(() => again('POST', 'messages/search', request)),
          50,
        ),
      );
    }
    await restarted.stop();
    return rows;
  } finally {
    await server.stop();
    await restarted?.stop();
    // BENCH_KEEP_DATA=1 leaves the filled data folder for a look at its plans (its path is printed).
    if (process.env.BENCH_KEEP_DATA) console.log(`data folder kept: ${dataDir}`);
    else await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const messages = Number(process.argv[2] ?? 2000);
  const rows = await runMailboxBench({
    messages,
    ...(process.argv[3] ? { databaseUrl: process.argv[3] } : {}),
  });
  for (const r of rows)
    console.log(
      `${r.name}: ${r.value.toFixed(1)} ${r.unit} (target ${r.target}${r.note ? `; ${r.note}` : ''})`,
    );
}
