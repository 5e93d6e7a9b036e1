/**
 * `npm run bench`: the benchmarks of DESIGN.md §5, on PGlite and on PostgreSQL, printed as one
 * table. `npm run bench -- --write` also rewrites bench/RESULTS.md. PostgreSQL runs use a fresh
 * database on BENCH_DATABASE_URL's server (default postgres://postgres@127.0.0.1:5432/postgres)
 * and drop it afterwards; `--pglite-only` skips them. `--quick` uses smaller corpora.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BenchRow } from './types.js';
import { runBundleBench } from './bundle.js';

const args = new Set(process.argv.slice(2));
const quick = args.has('--quick');
const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type DbBench = (opts: { databaseUrl?: string; quick: boolean }) => Promise<BenchRow[]>;
type ExportedBench = (opts: Record<string, unknown>) => Promise<BenchRow[]>;

/** The database-backed benchmarks; each module is optional until its area exists. */
async function databaseBenches(): Promise<[string, DbBench][]> {
  const found: [string, DbBench][] = [];
  const tryImport = async (file: string, pick: (m: Record<string, unknown>) => DbBench | undefined) => {
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
    (m) =>
      m.runIngestBench && ((o) => (m.runIngestBench as ExportedBench)({ ...o, count: o.quick ? 300 : 2000 })),
  );
  // SMTP ingest of the shared corpus beside Dovecot LMTP (Sieve, fsync) in the same run (issue 32).
  await tryImport(
    './ingest-vs-dovecot.js',
    (m) =>
      m.runIngestVsDovecotBench &&
      ((o) => (m.runIngestVsDovecotBench as ExportedBench)({ ...o, messages: o.quick ? 500 : 2000 })),
  );
  // What checking incoming mail (SPF, DKIM, DMARC, ARC) costs, with and without, in one run (issue 30).
  await tryImport(
    './inbound-checks.js',
    (m) =>
      m.runInboundChecksBench &&
      ((o) => (m.runInboundChecksBench as ExportedBench)({ ...o, count: o.quick ? 300 : 1000 })),
  );
  await tryImport('./memory.js', (m) => m.runMemoryBench && ((o) => (m.runMemoryBench as ExportedBench)(o)));
  // An idle server's polls (issue 31 added the due-item worker): CPU, and on PostgreSQL the transactions.
  await tryImport(
    './idle-polls.js',
    (m) =>
      m.runIdlePollsBench &&
      ((o) => (m.runIdlePollsBench as ExportedBench)({ ...o, seconds: o.quick ? 10 : 30 })),
  );
  // In process, on a mailbox written with SQL: the service alone, without HTTP (a second column, as such).
  // One corpus size per entry, so each runs on its own fresh database.
  for (const messages of quick ? [10_000] : [10_000, 100_000]) {
    const sized = (name: string) => (m: Record<string, unknown>) =>
      m[name] ? (o: Parameters<DbBench>[0]) => (m[name] as ExportedBench)({ ...o, messages }) : undefined;
    await tryImport('./list.js', sized('runListBench'));
    await tryImport('./search.js', sized('runSearchBench'));
  }
  // What a user feels: filled over SMTP from the shared corpus, timed over HTTP (bench/mailbox.ts).
  for (const messages of quick ? [2_000] : [20_000, 100_000]) {
    await tryImport(
      './mailbox.js',
      (m) => m.runMailboxBench && ((o) => (m.runMailboxBench as ExportedBench)({ ...o, messages })),
    );
  }
  // A collector importing a remote mailbox from a loopback Dovecot (bench/collectors.ts, issue 18).
  await tryImport(
    './collectors.js',
    (m) =>
      m.runCollectorsBench &&
      ((o) => (m.runCollectorsBench as ExportedBench)({ ...o, messages: o.quick ? 2_000 : 20_000 })),
  );
  await tryImport('./ws.js', (m) => m.runWsBench && ((o) => (m.runWsBench as ExportedBench)(o)));
  await tryImport('./send.js', (m) => m.runSendBench && ((o) => (m.runSendBench as ExportedBench)(o)));
  await tryImport(
    './filters.js',
    (m) =>
      m.runFiltersBench &&
      ((o) =>
        (m.runFiltersBench as ExportedBench)({
          ...o,
          count: o.quick ? 400 : 2000,
          apply: o.quick ? 2000 : 100_000,
        })),
  );
  await tryImport(
    './contacts.js',
    (m) =>
      m.runContactsBench &&
      ((o) => (m.runContactsBench as ExportedBench)({ ...o, contacts: o.quick ? 2000 : 10_000 })),
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

const rows: BenchRow[] = [];
for (const [file, bench] of await databaseBenches()) {
  process.stderr.write(`running ${file} on PGlite…\n`);
  rows.push(...(await bench({ quick })).map((r) => ({ database: 'PGlite' as const, ...r })));
  if (!args.has('--pglite-only')) {
    process.stderr.write(`running ${file} on PostgreSQL…\n`);
    rows.push(
      ...(await withFreshPostgres((url) => bench({ databaseUrl: url, quick }))).map((r) => ({
        database: 'PostgreSQL' as const,
        ...r,
      })),
    );
  }
}
rows.push(...(await runBundleBench()));

const output = table(rows);
console.log(output);
if (args.has('--write')) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  await fs.writeFile(
    new URL('./RESULTS.md', import.meta.url),
    `# Benchmark results\n\nLatest \`npm run bench -- --write\`${quick ? ' --quick' : ''} on ${os.cpus().length} × ${cpu}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Targets: DESIGN.md §5.\n\n${output}\n`,
  );
}
