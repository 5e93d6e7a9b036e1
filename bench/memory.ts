/**
 * Server memory at rest (DESIGN.md §5: idle ≤ 150 MB RSS; issue 32: ≤ 150 MB on PGlite, ≤ 100 MB on PostgreSQL). The
 * real server (the bundle apps/server/build/main.js, as `npm start` runs it) starts on an empty data folder or database,
 * so the first start pays for creating the database (with PGlite: initdb inside WebAssembly) and
 * the migrations; then it is stopped and started again on the same data, as every later start
 * is. After each start the RSS is read once it has settled (it moves less than 1 MB over 3 s) and
 * the high-water mark (VmHWM) gives the peak of the start itself: WebAssembly memory never
 * shrinks, so what a start touches stays reserved for the life of the process.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/memory.ts [databaseUrl]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow } from './types.js';
import { memoryOf, startServer } from './server-process.js';

const MB = 1024 * 1024;

/** RSS once it moves less than 1 MB over 3 s (or after 30 s), and the peak since the process began. */
async function settledMemory(pid: number): Promise<{ rss: number; peak: number }> {
  const samples: number[] = [];
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    samples.push((await memoryOf(pid)).rss);
    const last = samples.slice(-7);
    if (last.length === 7 && Math.max(...last) - Math.min(...last) < MB) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return memoryOf(pid);
}

/**
 * The peak of PGlite's initdb, which the server runs once per install in a child process of its
 * own (db/pglite-initdb.ts): VmHWM only grows, so its last reading before the exit is the peak.
 */
async function initdbPeak(): Promise<number> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-initdb-'));
  try {
    const child = spawn(
      process.execPath,
      ['apps/server/dist/core/db/pglite-initdb.js', path.join(dataDir, 'pglite')],
      {
        cwd: new URL('../', import.meta.url).pathname,
        stdio: 'inherit',
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let peak = 0;
    while (child.exitCode === null && child.signalCode === null) {
      peak = Math.max(peak, (await memoryOf(child.pid!)).peak);
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20))]);
    }
    if (child.exitCode !== 0) throw new Error('initdb failed');
    return peak;
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function measureStart(dataDir: string, databaseUrl: string | undefined) {
  const server = await startServer({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  try {
    return { ...(await settledMemory(server.pid)), startMs: server.startMs };
  } finally {
    await server.stop();
  }
}

export async function runMemoryBench(opts: { databaseUrl?: string }): Promise<BenchRow[]> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-memory-'));
  try {
    const first = await measureStart(dataDir, opts.databaseUrl);
    const again = await measureStart(dataDir, opts.databaseUrl);
    const mb = (bytes: number) => bytes / MB;
    // Issue 32's targets: an idle server on an empty data folder ≤ 150 MB on PGlite, ≤ 100 MB on PostgreSQL.
    const target = opts.databaseUrl ? 100 : 150;
    const creating = opts.databaseUrl
      ? 'migrations on an empty database'
      : 'migrations; initdb ran in a child process before';
    const initdb = opts.databaseUrl ? undefined : await initdbPeak();
    return [
      {
        name: 'server memory idle, after a start on existing data (RSS)',
        value: mb(again.rss),
        unit: 'MB',
        target: `≤ ${target} MB`,
        ok: again.rss <= target * MB,
        note: `peak during that start ${mb(again.peak).toFixed(0)} MB; up in ${(again.startMs / 1000).toFixed(1)} s`,
      },
      {
        name: 'server memory idle, after the first start (RSS)',
        figure: 'idle-empty',
        value: mb(first.rss),
        unit: 'MB',
        target: `≤ ${target} MB`,
        ok: first.rss <= target * MB,
        note: `${creating}; up in ${(first.startMs / 1000).toFixed(1)} s`,
      },
      {
        name: 'server memory peak during the first start (VmHWM)',
        value: mb(first.peak),
        unit: 'MB',
        target: '≤ 400 MB (the ceiling under load; §5 names no start-up figure)',
        ok: first.peak <= 400 * MB,
        note: creating,
      },
      ...(initdb === undefined
        ? []
        : [
            {
              name: 'peak of the initdb child process, once per install (VmHWM)',
              value: mb(initdb),
              unit: 'MB',
              target: '— (a few seconds, then the process exits)',
              note: 'PGlite runs initdb in a second PostgreSQL instance plus a copy of its heap',
            },
          ]),
    ];
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runMemoryBench(process.argv[2] ? { databaseUrl: process.argv[2] } : {});
  for (const r of rows)
    console.log(`${r.name}: ${r.value.toFixed(0)} ${r.unit} (target ${r.target}; ${r.note})`);
}
