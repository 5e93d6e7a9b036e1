/**
 * A collector importing a 20,000-message remote mailbox (#18; targets: ≥ 100 messages/s on PostgreSQL, server RSS
 * ≤ 400 MB). A real Dovecot on loopback (test-support/dovecot.ts) holds one user's mailbox filled from the shared
 * corpus (../shared/corpus/gen-mailbox.mjs, seed 42) across several folders, one with a Russian name — the files
 * written straight into its Maildir with their flags in the names, then every folder read once over IMAP so Dovecot has
 * indexed it, as a mailbox in use has been. The server runs as `npm start` runs it (server-process.ts) with
 * OUTBOUND_ALLOW_PRIVATE naming loopback; a member signs up over HTTP, adds the collector with `POST user/collectors`
 * (host, port, no TLS), and the bench polls `GET user/collectors` until the collector is idle with every message
 * done, sampling the server's resident memory meanwhile (VmRSS, and VmHWM, the kernel's own high-water mark). Then
 * the collector's folders are counted with `GET folders` against the remote ones.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/collectors.ts [messages] [databaseUrl]
 */
import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import type { Collector, Folder } from '@mailroom/protocol';
import { startDovecot } from '../test-support/dovecot.js';
import type { BenchRow } from './types.js';
import { apiClient, corpus } from './mailbox.js';
import { cpuSecondsOf, memoryOf, startServer } from './server-process.js';
import { signUp } from './ws.js';

const USER = 'bench';
const PASSWORD = 'bench-password';
/** The remote folders and the share of the corpus each holds (the rest goes to INBOX). */
const FOLDERS: [string, number][] = [
  ['Archive', 0.3],
  ['Work', 0.15],
  ['Работа', 0.1],
  ['Lists', 0.05],
];
const POLL_MS = 250;

interface Entry {
  file: string;
  flags: string[];
  size: number;
}

async function manifest(dir: string): Promise<Entry[]> {
  const out: Entry[] = [];
  for await (const line of readline.createInterface({
    input: createReadStream(path.join(dir, 'manifest.jsonl')),
  }))
    if (line.trim()) {
      const e = JSON.parse(line) as Entry;
      out.push({ file: path.join(dir, e.file), flags: e.flags, size: e.size });
    }
  return out;
}

/** Maildir's info letters of IMAP flags, in ASCII order as Maildir wants them. */
function maildirFlags(flags: string[]): string {
  const letters: Record<string, string> = { '\\Answered': 'R', '\\Flagged': 'F', '\\Seen': 'S' };
  return flags
    .map((f) => letters[f] ?? '')
    .filter(Boolean)
    .sort()
    .join('');
}

/**
 * Fills the Dovecot user's mailbox: the folders made over IMAP (Dovecot names their Maildir++ folders, modified UTF-7
 * and all), the messages written into their `cur/` with the flags in the file names, everything owned by nobody
 * (the user's uid), then each folder fetched once (UID, FLAGS, size, date, envelope) so Dovecot indexes it.
 */
export async function fillRemote(
  dovecot: Awaited<ReturnType<typeof startDovecot>>,
  entries: Entry[],
): Promise<Map<string, number>> {
  const client = await dovecot.client(USER);
  const userDir = path.join(dovecot.dir, 'mail', USER);
  const dirs = new Map<string, string>([['INBOX', userDir]]);
  try {
    // Dovecot makes the user's Maildir when it is first opened.
    await client.mailboxOpen('INBOX');
    for (const [name] of FOLDERS) {
      const before = new Set(await fs.readdir(userDir));
      await client.mailboxCreate(name);
      const made = (await fs.readdir(userDir)).filter((d) => d.startsWith('.') && !before.has(d));
      if (made.length !== 1)
        throw new Error(`could not find the Maildir folder of ${name}: ${made.join(', ')}`);
      dirs.set(name, path.join(userDir, made[0]!));
    }
    const counts = new Map<string, number>();
    let next = 0;
    const ranges: [string, number][] = FOLDERS.map(([name, share]) => [
      name,
      Math.round(entries.length * share),
    ]);
    ranges.push(['INBOX', entries.length - ranges.reduce((n, [, c]) => n + c, 0)]);
    const stamp = Math.floor(Date.now() / 1000);
    for (const [name, count] of ranges) {
      const cur = path.join(dirs.get(name)!, 'cur');
      await fs.mkdir(cur, { recursive: true });
      for (let i = 0; i < count; i++, next++) {
        const e = entries[next]!;
        const size = (await fs.stat(e.file)).size;
        await fs.copyFile(
          e.file,
          path.join(cur, `${stamp}.M${next}P1.bench,S=${size}:2,${maildirFlags(e.flags)}`),
        );
      }
      counts.set(name, count);
    }
    execFileSync('chown', ['-R', 'nobody:nogroup', userDir]);
    for (const name of counts.keys()) {
      const box = await client.mailboxOpen(name, { readOnly: true });
      if (box.exists !== counts.get(name))
        throw new Error(`${name} holds ${box.exists} of ${counts.get(name)}`);
      await client.fetchAll('1:*', {
        uid: true,
        flags: true,
        size: true,
        internalDate: true,
        envelope: true,
      });
    }
    return counts;
  } finally {
    await client.logout().catch(() => undefined);
  }
}

function walk(folders: Folder[], visit: (f: Folder) => void): void {
  for (const f of folders) {
    visit(f);
    walk(f.subfolders, visit);
  }
}

/**
 * The RSS split: the JavaScript heap, memory V8 accounts outside it (Buffers, PGlite's WebAssembly memory) and the
 * rest (code, the parse workers' threads and heaps, malloc).
 */
async function memorySplit(metricsUrl: string, rss: number): Promise<string> {
  const metrics = await (await fetch(metricsUrl)).text();
  const metric = (name: string) =>
    Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(metrics)?.[1] ?? NaN) / 2 ** 20;
  const heap = metric('nodejs_heap_size_total_bytes');
  const external = metric('nodejs_external_memory_bytes');
  return `${(rss / 2 ** 20).toFixed(0)} MB: heap ${heap.toFixed(0)}, external ${external.toFixed(0)}, rest ${(rss / 2 ** 20 - heap - external).toFixed(0)}`;
}

export async function runCollectorsBench(opts: {
  databaseUrl?: string;
  messages: number;
}): Promise<BenchRow[]> {
  const { dir: corpusDir } = await corpus(opts.messages);
  const entries = await manifest(corpusDir);
  const dovecot = await startDovecot({ users: [{ user: USER, password: PASSWORD }] });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-collectors-'));
  try {
    const fillStarted = performance.now();
    const counts = await fillRemote(dovecot, entries);
    process.stderr.write(
      `collectors bench: ${entries.length} messages in ${counts.size} Dovecot folders in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s\n`,
    );
    const server = await startServer({
      dataDir,
      ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
      env: { OUTBOUND_ALLOW_PRIVATE: '127.0.0.1' },
    });
    try {
      const { cookie } = await signUp(server.http);
      const api = apiClient(server.http, cookie);
      const rssBefore = (await memoryOf(server.pid)).rss;
      const cpuBefore = await cpuSecondsOf(server.pid);
      const load = os.loadavg()[0]!;

      const started = performance.now();
      const { collector: created } = await api<{ collector: Collector }>('POST', 'user/collectors', {
        email: `${USER}@remote.test`,
        login: USER,
        password: PASSWORD,
        host: '127.0.0.1',
        port: dovecot.port,
        security: 'none',
      });
      let peakRss = 0;
      let split = '';
      let collector = created;
      let lastLog = 0;
      let lastSplit = 0;
      for (;;) {
        const { rss } = await memoryOf(server.pid);
        // What the RSS holds near its peak (every 2 s at most), from the server's own Prometheus metrics.
        if (rss > peakRss && performance.now() - lastSplit > 2000) {
          lastSplit = performance.now();
          split = await memorySplit(server.metrics, rss);
        }
        peakRss = Math.max(peakRss, rss);
        const { collectors } = await api<{ collectors: Collector[] }>('GET', 'user/collectors');
        collector = collectors.find((c) => c.id === created.id)!;
        const p = collector.progress;
        if (
          collector.state === 'idle' &&
          p.messages_total === entries.length &&
          p.messages_done === p.messages_total
        )
          break;
        if (collector.state === 'stopped' || collector.state === 'disabled' || collector.last_error)
          throw new Error(`the collector is ${collector.state}: ${collector.last_error}`);
        if (performance.now() - lastLog > 10_000) {
          lastLog = performance.now();
          process.stderr.write(
            `  ${collector.state} ${p.messages_done}/${p.messages_total}, folders ${p.folders_done}/${p.folders_total}, RSS ${(peakRss / 2 ** 20).toFixed(0)} MB\n`,
          );
        }
        await new Promise((r) => setTimeout(r, POLL_MS));
      }
      const seconds = (performance.now() - started) / 1000;
      const cpu = (await cpuSecondsOf(server.pid)) - cpuBefore;
      const { peak: hwm, rss: rssAfter } = await memoryOf(server.pid);
      peakRss = Math.max(peakRss, hwm);

      // Every remote folder's count, in the collector's folders.
      const { folders } = await api<{ folders: Folder[] }>('GET', 'folders');
      const local = new Map<string, number>();
      walk(folders, (f) => {
        if (f.name.startsWith(`${collector.folder_name}.`))
          local.set(f.name.slice(collector.folder_name.length + 1), f.total);
      });
      for (const [name, count] of counts)
        if (local.get(name) !== count)
          throw new Error(`the collector's ${name} holds ${local.get(name)} of ${count} (${[...local]})`);
      const stored = [...local.values()].reduce((n, c) => n + c, 0);
      if (stored !== entries.length) throw new Error(`${stored} messages imported of ${entries.length}`);

      const rate = entries.length / seconds;
      const size = opts.messages >= 1000 ? `${Math.round(opts.messages / 1000)}k` : String(opts.messages);
      const note = `${counts.size} folders checked; ${seconds.toFixed(0)} s; server CPU ${((cpu / entries.length) * 1000).toFixed(1)} ms/message; load ${load.toFixed(1)} at the start`;
      return [
        {
          name: `Collector import of a ${size} remote mailbox (Dovecot, loopback)`,
          value: rate,
          unit: 'messages/s',
          target: '≥ 100 messages/s',
          ok: rate >= 100,
          note,
        },
        {
          name: `Server peak RSS while importing ${size}`,
          value: peakRss / 2 ** 20,
          unit: 'MB',
          target: '≤ 400 MB',
          ok: peakRss <= 400 * 2 ** 20,
          note: `${(rssBefore / 2 ** 20).toFixed(0)} MB before, ${(rssAfter / 2 ** 20).toFixed(0)} MB after; near the peak ${split}`,
        },
      ];
    } finally {
      await server.stop();
    }
  } finally {
    await dovecot.stop();
    if (!process.env.BENCH_KEEP_DATA) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await runCollectorsBench({
    messages: Number(process.argv[2] ?? 20_000),
    ...(process.argv[3] ? { databaseUrl: process.argv[3] } : {}),
  });
  for (const r of rows)
    console.log(
      `${r.name}: ${r.value.toFixed(1)} ${r.unit} (${r.target}${r.ok ? '' : ', MISSED'}) ${r.note ?? ''}`,
    );
}
