/**
 * What durable embedded PGlite costs (#13): PGlite fsyncing its commits and checkpoints (the default) against
 * PGLITE_FSYNC=false (PGlite as it ships).
 *
 * 1. The disk: fdatasync of an 8 KB overwrite in a 16 MB file (what a WAL flush is), p50/p90/p99.
 * 2. In process: a delivery-sized transaction (a 5 KB row and a counter update) on a PGlite data folder, with
 *    and without fsync, alternating in blocks so that other load on the machine falls on both alike; the time the
 *    syncs themselves took is read by wrapping Node's fsyncSync/fdatasyncSync, which the sync layer calls. Then a
 *    CHECKPOINT after those commits: its fsyncs hold the event loop.
 * 3. The real server (as `npm start` runs it) filled over SMTP from the shared corpus with 4 connections,
 *    alternately with and without fsync, while Inbox page 1 is requested over HTTP every 100 ms: ingest rate,
 *    server CPU per message, and the Inbox's p50/p90 during the ingest.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/durability.ts [messages] [rounds]
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { apiClient, corpus, fill, percentile } from './mailbox.js';
import { cpuSecondsOf, startServer } from './server-process.js';
import { signUp } from './ws.js';

const fmt = (ms: number) => ms.toFixed(2);
const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${fmt(percentile(sorted, 0.5))} ms, p90 ${fmt(percentile(sorted, 0.9))} ms, p99 ${fmt(percentile(sorted, 0.99))} ms`;
};

function diskSync(dir: string): string {
  const file = path.join(dir, 'fsync-probe');
  const fd = fs.openSync(file, 'w+');
  fs.writeSync(fd, Buffer.alloc(16 << 20));
  fs.fsyncSync(fd);
  const page = Buffer.alloc(8192, 1);
  const times: number[] = [];
  for (let i = 0; i < 500; i++) {
    fs.writeSync(fd, page, 0, page.length, (i * 8192) % (16 << 20));
    const started = performance.now();
    fs.fdatasyncSync(fd);
    times.push(performance.now() - started);
  }
  fs.closeSync(fd);
  return stats(times);
}

/** Time spent inside Node's sync calls, which DurableNodeFS calls for PGlite (looked up at each call). */
const synced = { calls: 0, ms: 0 };
for (const name of ['fsyncSync', 'fdatasyncSync'] as const) {
  const original = fs[name];
  fs[name] = (fd: number) => {
    const started = performance.now();
    try {
      original(fd);
    } finally {
      synced.calls++;
      synced.ms += performance.now() - started;
    }
  };
}

async function inProcess(dir: string): Promise<string[]> {
  const dbs: Record<'on' | 'off', Db> = {
    on: await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'on'), fsync: true }),
    off: await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'off'), fsync: false }),
  };
  const times = { on: [] as number[], off: [] as number[] };
  const syncs = { on: { calls: 0, ms: 0 }, off: { calls: 0, ms: 0 } };
  for (const db of Object.values(dbs)) {
    await sql`create table delivered (id serial primary key, body text)`.execute(db);
    await sql`create table counter (n int)`.execute(db);
    await sql`insert into counter values (0)`.execute(db);
  }
  const body = 'x'.repeat(5000);
  for (let block = 0; block < 20; block++) {
    for (const mode of ['on', 'off'] as const) {
      for (let i = 0; i < 50; i++) {
        const before = { ...synced };
        const started = performance.now();
        await dbs[mode].transaction().execute(async (trx) => {
          await sql`insert into delivered (body) values (${body})`.execute(trx);
          await sql`update counter set n = n + 1`.execute(trx);
        });
        times[mode].push(performance.now() - started);
        syncs[mode].calls += synced.calls - before.calls;
        syncs[mode].ms += synced.ms - before.ms;
      }
    }
  }
  const lines = (['on', 'off'] as const).map(
    (mode) =>
      `fsync ${mode}: a delivery-sized commit ${stats(times[mode])}; ` +
      `${(syncs[mode].calls / times[mode].length).toFixed(2)} syncs per commit taking ${fmt(syncs[mode].ms / times[mode].length)} ms`,
  );
  for (const mode of ['on', 'off'] as const) {
    const before = { ...synced };
    const started = performance.now();
    await sql`checkpoint`.execute(dbs[mode]);
    lines.push(
      `fsync ${mode}: CHECKPOINT after ${times[mode].length} commits ${fmt(performance.now() - started)} ms ` +
        `(${synced.calls - before.calls} syncs, ${fmt(synced.ms - before.ms)} ms in them)`,
    );
  }
  for (const db of Object.values(dbs)) await db.destroy();
  return lines;
}

async function overSmtp(messages: number, fsync: boolean): Promise<string> {
  const { files } = await corpus(messages);
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-durability-'));
  process.env.PGLITE_FSYNC = String(fsync); // the server inherits it
  const server = await startServer({ dataDir });
  try {
    const { cookie, email } = await signUp(server.http);
    const api = apiClient(server.http, cookie);
    const { folders } = await api<{ folders: { id: number; system: string | null }[] }>('GET', 'folders');
    const inbox = folders.find((f) => f.system === 'inbox')!;
    const inboxTimes: number[] = [];
    let filling = true;
    const reader = (async () => {
      while (filling) {
        const started = performance.now();
        await api('GET', `messages/folder/${inbox.id}?page=1&limit=30`);
        inboxTimes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const cpuBefore = await cpuSecondsOf(server.pid);
    const rate = await fill(server.smtpPort, files, email);
    const cpu = ((await cpuSecondsOf(server.pid)) - cpuBefore) / files.length;
    filling = false;
    await reader;
    return (
      `fsync ${fsync ? 'on ' : 'off'}: ${messages} messages over SMTP ${rate.toFixed(1)} messages/s, ` +
      `server CPU ${(cpu * 1000).toFixed(1)} ms/message; Inbox page 1 during the ingest ${stats(inboxTimes)} (${inboxTimes.length} requests)`
    );
  } finally {
    await server.stop();
    await fsp.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const messages = Number(process.argv[2] ?? 2000);
  const rounds = Number(process.argv[3] ?? 2);
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-durability-'));
  try {
    console.log(`disk: fdatasync of an 8 KB write ${diskSync(dir)}`);
    for (const line of await inProcess(dir)) console.log(line);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
  for (let round = 0; round < rounds; round++) {
    for (const fsync of round % 2 ? [false, true] : [true, false])
      console.log(await overSmtp(messages, fsync));
  }
}
