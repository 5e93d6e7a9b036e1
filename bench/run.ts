/**
 * `npm run bench`: the benchmarks of DESIGN.md §5, on PGlite and on PostgreSQL, printed as one
 * table. `npm run bench -- --write` also rewrites bench/RESULTS.md. PostgreSQL runs use a fresh
 * database on BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres)
 * and drop it afterwards; `--pglite-only` skips them. `--quick` uses smaller corpora. `--size N` runs the mailbox bench
 * at N messages (PostgreSQL; at most 100,000 on PGlite), `--only mailbox,bundle` only the benchmarks named. The
 * table ends with the lines of issue 32's table and its targets.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BenchRow, Issue32Figure } from './types.js';
import { runBundleBench } from './bundle.js';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type BenchOptions = { databaseUrl?: string; quick: boolean };
type DbBench = (opts: BenchOptions) => Promise<BenchRow[]>;
type ExportedBench = (opts: Record<string, unknown>) => Promise<BenchRow[]>;

/** `--size N`: the mailbox bench at N messages on PostgreSQL (and at most 100,000 on PGlite: issue 32's 1M run). */
const sizeArg = process.argv.indexOf('--size');
const size = sizeArg > 0 ? Number(process.argv[sizeArg + 1]) : undefined;
if (size !== undefined && !(Number.isInteger(size) && size > 0))
  throw new Error('--size takes a message count');
/** `--only a,b`: only the benchmarks whose file names are given (`--only mailbox,bundle`). */
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1]!.split(',')) : undefined;
const wanted = (file: string) => !only || only.has(file.replace(/^\.\/|\.js$/g, ''));

/** A module's exported bench by name, called with the run's options and `extra` of them; undefined when absent. */
const bench =
  (name: string, extra: (o: BenchOptions) => Record<string, unknown> = () => ({})) =>
  (m: Record<string, unknown>): DbBench | undefined => {
    const fn = m[name];
    return typeof fn === 'function' ? (o) => (fn as ExportedBench)({ ...o, ...extra(o) }) : undefined;
  };

/** The database-backed benchmarks; each module is optional until its area exists. */
async function databaseBenches(): Promise<[string, DbBench][]> {
  const found: [string, DbBench][] = [];
  const tryImport = async (file: string, pick: (m: Record<string, unknown>) => DbBench | undefined) => {
    if (!wanted(file)) return;
    try {
      const m = (await import(file)) as Record<string, unknown>;
      const fn = pick(m);
      if (fn) found.push([file, fn]);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw err;
    }
  };
  await tryImport(
    './ingest.js',
    bench('runIngestBench', (o) => ({ count: o.quick ? 300 : 2000 })),
  );
  // SMTP ingest of the shared corpus beside Dovecot LMTP (Sieve, fsync) in the same run (issue 32).
  await tryImport(
    './ingest-vs-dovecot.js',
    bench('runIngestVsDovecotBench', (o) => ({ messages: o.quick ? 500 : 2000 })),
  );
  // What checking incoming mail (SPF, DKIM, DMARC, ARC) costs, with and without, in one run (issue 30).
  await tryImport(
    './inbound-checks.js',
    bench('runInboundChecksBench', (o) => ({ count: o.quick ? 300 : 1000 })),
  );
  await tryImport('./memory.js', bench('runMemoryBench'));
  // An idle server's polls (issue 31 added the due-item worker): CPU, and on PostgreSQL the transactions.
  await tryImport(
    './idle-polls.js',
    bench('runIdlePollsBench', (o) => ({ seconds: o.quick ? 10 : 30 })),
  );
  // In process, on a mailbox written with SQL: the service alone, without HTTP (a second column, as such).
  // One corpus size per entry, so each runs on its own fresh database.
  for (const messages of quick ? [10_000] : [10_000, 100_000]) {
    await tryImport(
      './list.js',
      bench('runListBench', () => ({ messages })),
    );
    await tryImport(
      './search.js',
      bench('runSearchBench', () => ({ messages })),
    );
  }
  // What a user feels: filled over SMTP from the shared corpus, timed over HTTP (bench/mailbox.ts). With --size,
  // that size on PostgreSQL and at most 100,000 on PGlite.
  for (const messages of size ? [size] : quick ? [2_000] : [20_000, 100_000]) {
    await tryImport(
      './mailbox.js',
      bench('runMailboxBench', (o) => ({ messages: o.databaseUrl ? messages : Math.min(messages, 100_000) })),
    );
  }
  // A collector importing a remote mailbox from a loopback Dovecot (bench/collectors.ts, issue 18).
  await tryImport(
    './collectors.js',
    bench('runCollectorsBench', (o) => ({ messages: o.quick ? 2_000 : 20_000 })),
  );
  await tryImport('./ws.js', bench('runWsBench'));
  await tryImport('./send.js', bench('runSendBench'));
  await tryImport(
    './filters.js',
    bench('runFiltersBench', (o) => ({ count: o.quick ? 400 : 2000, apply: o.quick ? 2000 : 100_000 })),
  );
  await tryImport(
    './contacts.js',
    bench('runContactsBench', (o) => ({ contacts: o.quick ? 2000 : 10_000 })),
  );
  return found;
}

async function withFreshPostgres<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `mailroom_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    return await fn(url.href);
  } finally {
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
}

function format(value: number): string {
  if (!Number.isFinite(value)) return '—';
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function table(rows: BenchRow[]): string {
  const lines = ['| benchmark | database | result | target | met |', '| --- | --- | --- | --- | --- |'];
  for (const r of rows) {
    const met = r.ok === undefined ? '' : r.ok ? 'yes' : '**no**';
    lines.push(
      `| ${r.name} | ${r.database ?? '—'} | ${format(r.value)} ${r.unit}${r.note ? ` (${r.note})` : ''} | ${r.target} | ${met} |`,
    );
  }
  return lines.join('\n');
}

/** Issue 32's table: each line's targets (PGlite, PostgreSQL) as the issue states them, and how a value meets them. */
const ISSUE_32: Record<
  Issue32Figure,
  { line: string; target: [pglite: number, postgres: number]; unit: string; below: boolean }
> = {
  'idle-empty': { line: 'server RSS, idle, empty data folder', target: [150, 100], unit: 'MB', below: true },
  'rss-after-fill': {
    line: 'server RSS after ingesting over SMTP (and the reads)',
    target: [300, 300],
    unit: 'MB',
    below: true,
  },
  'idle-after-restart': {
    line: 'server RSS idle after restart on the filled mailbox',
    target: [200, 200],
    unit: 'MB',
    below: true,
  },
  'ingest-vs-dovecot': {
    line: 'SMTP ingest of the corpus, 4 connections, against Dovecot LMTP in the same run',
    target: [2, 2],
    unit: '× Dovecot',
    below: false,
  },
  'first-row-cold': {
    line: 'first Inbox row in Chromium, cold cache',
    target: [250, 250],
    unit: 'ms',
    below: true,
  },
  'first-row-warm': {
    line: 'first Inbox row in Chromium, warm cache',
    target: [150, 150],
    unit: 'ms',
    below: true,
  },
  'inbox-page': { line: 'Inbox page 1 over HTTP (p50)', target: [3, 3], unit: 'ms', below: true },
  search: {
    line: 'search over HTTP (p95; at 1,000,000 messages on PostgreSQL)',
    target: [25, 25],
    unit: 'ms p95',
    below: true,
  },
  disk: { line: 'disk at rest against the raw mail', target: [1, 1], unit: '×', below: true },
};

/** The lines of issue 32's table, from the rows that fill them, with the issue's targets (not DESIGN §5's). */
function issue32Table(rows: BenchRow[]): string {
  const lines = ['| issue 32 | database | measured | target | met |', '| --- | --- | --- | --- | --- |'];
  for (const [figure, spec] of Object.entries(ISSUE_32) as [
    Issue32Figure,
    (typeof ISSUE_32)[Issue32Figure],
  ][]) {
    for (const r of rows.filter((row) => row.figure === figure)) {
      const target = r.database === 'PostgreSQL' ? spec.target[1] : spec.target[0];
      // The Dovecot line is a ratio: the row's note begins with it (bench/ingest-vs-dovecot.ts).
      const value =
        figure === 'ingest-vs-dovecot'
          ? Number(/^([0-9.]+)× Dovecot/.exec(r.note ?? '')?.[1] ?? NaN)
          : figure === 'search'
            ? (r.p95 ?? NaN)
            : r.value;
      const met = spec.below ? value <= target : value >= target;
      const detail = figure === 'ingest-vs-dovecot' ? ` (${format(r.value)} messages/s)` : '';
      lines.push(
        `| ${spec.line}: ${r.name} | ${r.database ?? '—'} | ${format(value)} ${spec.unit}${detail} | ${spec.below ? '≤' : '≥'} ${target} ${spec.unit} | ${met ? 'yes' : '**no**'} |`,
      );
    }
  }
  return lines.join('\n');
}

const rows: BenchRow[] = [];
for (const [file, run] of await databaseBenches()) {
  process.stderr.write(`running ${file} on PGlite…\n`);
  rows.push(...(await run({ quick })).map((r) => ({ database: 'PGlite' as const, ...r })));
  if (!args.has('--pglite-only')) {
    process.stderr.write(`running ${file} on PostgreSQL…\n`);
    rows.push(
      ...(await withFreshPostgres((url) => run({ databaseUrl: url, quick }))).map((r) => ({
        database: 'PostgreSQL' as const,
        ...r,
      })),
    );
  }
}
if (wanted('bundle')) rows.push(...(await runBundleBench()));

const output = `${table(rows)}\n\n${issue32Table(rows)}`;
console.log(output);
if (args.has('--write')) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  await fs.writeFile(
    new URL('./RESULTS.md', import.meta.url),
    `# Benchmark results\n\nLatest \`npm run bench -- --write\`${quick ? ' --quick' : ''} on ${os.cpus().length} × ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Targets: DESIGN.md §5.\n\n${output}\n`,
  );
}
