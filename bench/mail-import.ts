/**
 * Mail import speed (issue 33): a Google Takeout-shaped mbox of the shared corpus (seed 42, X-Gmail-Labels) imported
 * into a fresh account by the mail-import job, in this process, on PGlite (in a data folder) or PostgreSQL; the
 * messages per second of the whole import (the count pass included), the peak RSS, where the time went, and the
 * Takeout check: every message in its folder and labels, with its flags and date, byte for byte.
 *
 *   node --conditions=@mailroom/source --import tsx --expose-gc bench/mail-import.ts [messages] [databaseUrl]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import pg from 'pg';
import { migrate, openDatabase, upkeepDatabase, upkeepWanted } from '../apps/server/src/core/db/index.js';
import { openBlobStore } from '../apps/server/src/core/blobs/index.js';
import { InProcessEventBus } from '../apps/server/src/core/events/index.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import { getMailImport, runMailImport, startImport } from '../apps/server/src/imports/index.js';
import { closeParsePool } from '../apps/server/src/mailbox/index.js';
import { corpus } from '../test-support/corpus.js';
import { takeoutMbox } from '../test-support/mail-archives.js';
import { takeoutMismatches } from '../test-support/takeout-check.js';

const count = Number(process.argv[2] ?? 10_000);
const serverUrl = process.argv[3];
const { files, entries } = await corpus(count);
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-import-'));
const file = path.join(dir, 'takeout.mbox');
// What each message must become (hashes, not bytes): checked after the import (issue 33's Takeout check).
const expected = await takeoutMbox(files, entries, file, { keepBytes: false });
const { size } = await fs.stat(file);

let databaseName: string | undefined;
let db;
if (serverUrl) {
  databaseName = `mailroom_bench_import_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${databaseName}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  db = await openDatabase({ kind: 'postgres', url: url.href });
} else db = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'pglite') });
await migrate(db);
const blobs = await openBlobStore(db, path.join(dir, 'blobs'));
const { account } = await ensureAccount(db, {
  memberId: '123456789012',
  name: 'Bench',
  mailDomain: 'bench.test',
});
await db.updateTable('accounts').set({ quota_limit_bytes: 1e12 }).where('id', '=', account.id).execute();

globalThis.gc?.();
const startRss = process.memoryUsage().rss;
let peakRss = startRss;
let peakHeap = 0;
const sampler = setInterval(() => {
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  peakRss = Math.max(peakRss, rss);
  peakHeap = Math.max(peakHeap, heapUsed + external - arrayBuffers);
}, 50);
const started = await startImport(db, account.id, { file: { path: file } });
const t0 = performance.now();
let last = t0;
const times = { messages: 0, prepareMs: 0, waitMs: 0, commitMs: 0 };
const deps = {
  onBatchTimes: (t: typeof times) => {
    for (const k of Object.keys(times) as (keyof typeof times)[]) times[k] += t[k];
  },
  db,
  blobs,
  events: new InProcessEventBus(),
  log: pino({ level: 'warn' }),
  afterBatch: (p: { position: number; total: number }) => {
    if (p.position % 2000 < 200 && performance.now() - last > 1000) {
      last = performance.now();
      process.stderr.write(
        `${p.position} of ${p.total} at ${((p.position * 1000) / (last - t0)).toFixed(0)}/s\n`,
      );
    }
  },
};
// The server's database upkeep, as main.ts runs it once a minute where no autovacuum does (PGlite; PostgreSQL with it
// off, as on this machine): without it the planner keeps the empty tables' statistics, a thread's lookup by
// Message-ID intersects with every message of the account, and the import slows from 500/s to under 100/s by 60k.
let upkeepRunning: Promise<unknown> | null = null;
const upkeep = (await upkeepWanted(db, !serverUrl))
  ? setInterval(() => {
      upkeepRunning ??= upkeepDatabase(db).finally(() => (upkeepRunning = null));
    }, 60_000)
  : undefined;
while (await runMailImport(deps));
clearInterval(upkeep);
await upkeepRunning;
const seconds = (performance.now() - t0) / 1000;
clearInterval(sampler);
const done = await getMailImport(db, account.id, started.id);
console.log(
  `${serverUrl ? 'PostgreSQL' : 'PGlite'}: ${done.stored} of ${count} messages (${(size / 2 ** 20).toFixed(0)} MiB mbox) ` +
    `imported in ${seconds.toFixed(1)} s = ${(done.stored / seconds).toFixed(0)} messages/s; ` +
    `peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MiB (${(startRss / 2 ** 20).toFixed(0)} before the import; ` +
    `JS heap and buffers at most ${(peakHeap / 2 ** 20).toFixed(0)} MiB); state ${done.state}${done.error ? ` (${done.error})` : ''}`,
);
const per = (ms: number) => (ms / Math.max(1, times.messages)).toFixed(2);
console.log(
  `per message: preparing (parse, blobs, folders; beside the commit before) ${per(times.prepareMs)} ms, ` +
    `the commit waiting for it ${per(times.waitMs)} ms, committing (one transaction a batch, through ingest) ` +
    `${per(times.commitMs)} ms`,
);
const wrong = await takeoutMismatches(db, account.id, expected);
console.log(
  wrong.length === 0
    ? `Takeout check: all ${expected.length} messages in their folders and labels, flags and dates right, byte for byte`
    : `Takeout check: ${wrong.length} wrong, e.g. ${wrong.slice(0, 5).join('; ')}`,
);
await closeParsePool();
await db.destroy();
if (databaseName) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
}
await fs.rm(dir, { recursive: true, force: true });
