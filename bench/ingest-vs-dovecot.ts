/**
 * Ingest beside Dovecot in one run (issue 32: ≥ 2× Dovecot LMTP with Sieve and fsync). The same messages of the
 * shared corpus (../shared/corpus/gen-mailbox.mjs, seed 42) go, with the same client (nodemailer, `CONNECTIONS`
 * pooled connections, `IN_FLIGHT` messages outstanding), to:
 *
 * - Mailroom over SMTP: the real server as `npm start` runs it (server-process.ts) on a fresh data folder, one
 *   member signed up over HTTP, every message to their Inbox. A message counts when its 250 arrives, which comes
 *   only after its blob is fsynced and its rows committed (on PGlite: the WAL fdatasynced).
 * - Dovecot 2.3 (Debian's dovecot-lmtpd and dovecot-sieve) over LMTP: started here on loopback with a temporary
 *   configuration, one user, one Maildir, a Sieve script run on every delivery (a `fileinto` test that keeps the
 *   message in INBOX), and `mail_fsync` as named (`optimized`, Dovecot's default, fsyncs each delivered mail before
 *   its 250; `always` also fsyncs the index files). Dovecot's master runs as root; mail is delivered as `nobody`.
 *
 * The first `WARM_UP` messages warm each one up (connections, workers, query plans, Sieve compilation) and are not
 * counted; the rest are timed. The server's CPU (all its threads; for Dovecot its master, its reaped children and
 * the live ones) is read from /proc around the timed part. Each side's store is checked after: Mailroom's Inbox
 * total over HTTP, Dovecot's Maildir file count.
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/ingest-vs-dovecot.ts [messages] [databaseUrl]
 * [--sync-each-too] (on PGlite, Mailroom once more with PGLITE_GROUP_COMMIT=false, between the Dovecot runs).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { descendants, ensureDovecot } from '../test-support/dovecot.js';
import { accepts, freePort } from '../test-support/ports.js';
import type { BenchRow } from './types.js';
import { apiClient, corpus } from './mailbox.js';
import { cpuSecondsOf, startServer } from './server-process.js';
import { signUp } from './ws.js';

const CONNECTIONS = 4;
const IN_FLIGHT = 32;
const WARM_UP = 50;
const DOVECOT_USER = 'bench';

/** Sends every file to `to` through `transport` options, `IN_FLIGHT` at a time; seconds taken. */
async function deliverAll(
  options: { port: number; lmtp: boolean },
  files: string[],
  to: string,
  bytes: Map<string, Buffer>,
): Promise<number> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: options.port,
    lmtp: options.lmtp,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < files.length; i = next++) {
      const raw = bytes.get(files[i]!)!;
      const info = await transport.sendMail({ envelope: { from: 'bench@example.org', to: [to] }, raw });
      if (info.accepted.length !== 1) throw new Error(`${files[i]} refused: ${info.response}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    transport.close();
  }
  return (performance.now() - started) / 1000;
}

interface Measured {
  rate: number;
  cpuMsPerMessage: number;
  load: [number, number];
  /** Mailroom on PGlite: the WAL syncs of the whole run and the commits they carried (its /metrics). */
  wal?: { group: number; commits: number; ordered: number };
}

/** mailroom_pglite_wal_syncs_total by kind, from the server's /metrics; undefined on PostgreSQL. */
async function walSyncs(metricsUrl: string): Promise<Measured['wal']> {
  const text = await (await fetch(metricsUrl)).text();
  const kind = (k: string) =>
    Number(
      new RegExp(`^mailroom_pglite_wal_syncs_total\\{kind="${k}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? NaN,
    );
  const wal = { group: kind('group'), commits: kind('commits'), ordered: kind('ordered') };
  return Number.isNaN(wal.group) ? undefined : wal;
}

/** User + system CPU of a process, with its reaped children's (Dovecot's master waits for its services). */
async function cpuWithReaped(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return [11, 12, 13, 14].reduce((s, i) => s + Number(f[i] ?? 0), 0) / 100;
}

async function dovecotCpu(master: number): Promise<number> {
  let total = await cpuWithReaped(master);
  for (const pid of descendants(master)) total += await cpuSecondsOf(pid);
  return total;
}

/** Dovecot with LMTP only, on loopback, in a temporary folder; mail for one user into a Maildir, Sieve on. */
async function startDovecotLmtp(fsyncMode: 'optimized' | 'always') {
  ensureDovecot();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-dovecot-lmtp-'));
  await fs.chmod(dir, 0o755);
  for (const sub of ['run', 'state']) await fs.mkdir(path.join(dir, sub), { mode: 0o755 });
  const home = path.join(dir, 'mail', DOVECOT_USER);
  await fs.mkdir(home, { recursive: true });
  // What a member's filter typically is: a test or two on the header, the message kept in INBOX.
  await fs.writeFile(
    path.join(home, '.dovecot.sieve'),
    'require ["fileinto"];\n' +
      'if header :contains "subject" "[mailroom-bench-never]" { fileinto "Junk"; stop; }\n' +
      'if address :is "from" "nobody@nowhere.invalid" { discard; stop; }\n' +
      'keep;\n',
  );
  execFileSync('chown', ['-R', 'nobody:nogroup', path.join(dir, 'mail')]);
  const port = await freePort();
  await fs.writeFile(
    path.join(dir, 'dovecot.conf'),
    `# Written by bench/ingest-vs-dovecot.ts
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = lmtp
listen = 127.0.0.1
ssl = no
auth_username_format = %Ln
mail_location = maildir:${dir}/mail/%n
mail_uid = nobody
mail_gid = nogroup
first_valid_uid = 1
mail_fsync = ${fsyncMode}
postmaster_address = postmaster@remote.test
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/passwd
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${dir}/mail/%n allow_all_users=yes
}
namespace inbox {
  inbox = yes
  separator = .
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${port}
  }
}
protocol lmtp {
  mail_plugins = $mail_plugins sieve
}
plugin {
  sieve = file:~/sieve;active=~/.dovecot.sieve
}
service anvil {
  chroot =
}
`,
  );
  await fs.writeFile(path.join(dir, 'passwd'), `${DOVECOT_USER}:{PLAIN}unused\n`, { mode: 0o644 });
  const child: ChildProcess = spawn('dovecot', ['-F', '-c', path.join(dir, 'dovecot.conf')], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`dovecot did not listen on ${port}; see ${dir}/dovecot.log`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    pid: child.pid!,
    async delivered(): Promise<number> {
      let n = 0;
      for (const sub of ['new', 'cur'])
        n += (await fs.readdir(path.join(home, sub)).catch(() => [] as string[])).length;
      return n;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!process.env.BENCH_KEEP_DATA) await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function dovecotRun(
  fsyncMode: 'optimized' | 'always',
  warm: string[],
  timed: string[],
  bytes: Map<string, Buffer>,
): Promise<Measured> {
  const dovecot = await startDovecotLmtp(fsyncMode);
  try {
    const to = `${DOVECOT_USER}@remote.test`;
    await deliverAll({ port: dovecot.port, lmtp: true }, warm, to, bytes);
    const loadBefore = os.loadavg()[0]!;
    const cpuBefore = await dovecotCpu(dovecot.pid);
    const seconds = await deliverAll({ port: dovecot.port, lmtp: true }, timed, to, bytes);
    const cpu = (await dovecotCpu(dovecot.pid)) - cpuBefore;
    const loadAfter = os.loadavg()[0]!;
    const stored = await dovecot.delivered();
    if (stored !== warm.length + timed.length)
      throw new Error(`Dovecot holds ${stored} of ${warm.length + timed.length}`);
    return {
      rate: timed.length / seconds,
      cpuMsPerMessage: (cpu * 1000) / timed.length,
      load: [loadBefore, loadAfter],
    };
  } finally {
    await dovecot.stop();
  }
}

async function mailroomRun(
  databaseUrl: string | undefined,
  warm: string[],
  timed: string[],
  bytes: Map<string, Buffer>,
  env: Record<string, string> = {},
): Promise<Measured> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-ingest-vs-dovecot-'));
  const server = await startServer({ dataDir, env, ...(databaseUrl ? { databaseUrl } : {}) });
  try {
    const { cookie, email } = await signUp(server.http);
    await deliverAll({ port: server.smtpPort, lmtp: false }, warm, email, bytes);
    const loadBefore = os.loadavg()[0]!;
    const cpuBefore = await cpuSecondsOf(server.pid);
    const seconds = await deliverAll({ port: server.smtpPort, lmtp: false }, timed, email, bytes);
    const cpu = (await cpuSecondsOf(server.pid)) - cpuBefore;
    const loadAfter = os.loadavg()[0]!;
    const { folders } = await apiClient(server.http, cookie)<{
      folders: { system: string | null; total: number }[];
    }>('GET', 'folders');
    const inbox = folders.find((f) => f.system === 'inbox')!;
    if (inbox.total !== warm.length + timed.length)
      throw new Error(`the Inbox holds ${inbox.total} of ${warm.length + timed.length}`);
    const wal = await walSyncs(server.metrics);
    return {
      rate: timed.length / seconds,
      cpuMsPerMessage: (cpu * 1000) / timed.length,
      load: [loadBefore, loadAfter],
      ...(wal ? { wal } : {}),
    };
  } finally {
    await server.stop();
    if (!process.env.BENCH_KEEP_DATA) await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export async function runIngestVsDovecotBench(opts: {
  databaseUrl?: string;
  messages: number;
  /** On PGlite, Mailroom once more with PGLITE_GROUP_COMMIT=false (each commit synced on the event loop). */
  syncEachToo?: boolean;
}): Promise<BenchRow[]> {
  const { files } = await corpus(opts.messages);
  const bytes = new Map<string, Buffer>();
  for (const f of files) bytes.set(f, await fs.readFile(f));
  const warm = files.slice(0, WARM_UP);
  const timed = files.slice(WARM_UP);
  const kb = [...bytes.values()].reduce((n, b) => n + b.length, 0) / bytes.size / 1024;

  // Dovecot before and after Mailroom (its default fsync first, then `always`), so a change in the machine's load
  // during the run shows as a difference between the two Dovecot figures.
  const optimized = await dovecotRun('optimized', warm, timed, bytes);
  const mailroom = await mailroomRun(opts.databaseUrl, warm, timed, bytes);
  const syncEach =
    opts.syncEachToo && !opts.databaseUrl
      ? await mailroomRun(undefined, warm, timed, bytes, { PGLITE_GROUP_COMMIT: 'false' })
      : undefined;
  const always = await dovecotRun('always', warm, timed, bytes);
  const load = (m: Measured) => `load ${m.load[0].toFixed(1)}→${m.load[1].toFixed(1)}`;
  const what = `${timed.length} corpus messages (${kb.toFixed(1)} KB mean) to one mailbox, ${CONNECTIONS} connections`;
  const syncs = ({ wal }: Measured) =>
    wal
      ? `; ${wal.commits} commits in ${wal.group} WAL syncs off the event loop (${(wal.commits / wal.group).toFixed(1)} each), ${wal.ordered} on it before a data write`
      : '';
  const ratios = (m: Measured) =>
    `${(m.rate / always.rate).toFixed(2)}× Dovecot (mail_fsync=always), ${(m.rate / optimized.rate).toFixed(2)}× (optimized)`;
  return [
    {
      name: 'SMTP ingest of the corpus beside Dovecot LMTP (Mailroom)',
      figure: 'ingest-vs-dovecot',
      value: mailroom.rate,
      unit: 'messages/s',
      target: '≥ 2× Dovecot LMTP in the same run',
      // The 81 messages/s for Dovecot "with Sieve and fsync" is what mail_fsync=always gives here.
      ok: mailroom.rate >= 2 * always.rate,
      note: `${ratios(mailroom)}; server CPU ${mailroom.cpuMsPerMessage.toFixed(1)} ms/message; ${what}; ${load(mailroom)}${syncs(mailroom)}`,
    },
    ...(syncEach
      ? [
          {
            name: 'the same, PGLITE_GROUP_COMMIT=false (each commit synced on the event loop)',
            value: syncEach.rate,
            unit: 'messages/s',
            target: '— (before the group commit)',
            note: `${ratios(syncEach)}; server CPU ${syncEach.cpuMsPerMessage.toFixed(1)} ms/message; ${load(syncEach)}`,
          },
        ]
      : []),
    {
      name: 'Dovecot 2.3 LMTP, Sieve, mail_fsync=optimized (its default), same run',
      value: optimized.rate,
      unit: 'messages/s',
      target: '— (the peer)',
      note: `Dovecot CPU ${optimized.cpuMsPerMessage.toFixed(1)} ms/message; ${load(optimized)}`,
    },
    {
      name: 'Dovecot 2.3 LMTP, Sieve, mail_fsync=always, same run',
      value: always.rate,
      unit: 'messages/s',
      target: '— (the peer)',
      note: `Dovecot CPU ${always.cpuMsPerMessage.toFixed(1)} ms/message; ${load(always)}`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2).filter((a) => a !== '--sync-each-too');
  const rows = await runIngestVsDovecotBench({
    messages: Number(args[0] ?? 2000),
    syncEachToo: process.argv.includes('--sync-each-too'),
    ...(args[1] ? { databaseUrl: args[1] } : {}),
  });
  for (const r of rows)
    console.log(`${r.name}: ${r.value.toFixed(1)} ${r.unit} (${r.target}) ${r.note ?? ''}`);
}
