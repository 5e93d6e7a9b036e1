import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { migrate, openDatabase } from '../../src/core/db/index.js';
import { createAccount } from '../_mail.js';
import { exited, pgliteFolder, startServer } from '../_server.js';
import { freePort, waitForPort } from '../../../../test-support/ports.js';
import { cleanup } from '../_util.js';

const run = promisify(execFile);
const root = new URL('../../../../', import.meta.url).pathname;
const child = path.join(root, 'apps/server/test/_pglite-sync-child.ts');
const orderChild = path.join(root, 'apps/server/test/_pglite-group-order-child.ts');

async function needStrace(): Promise<void> {
  const strace = await run('strace', ['-V']).catch(() => null);
  if (!strace) throw new Error('this test needs strace (Debian: apt-get install -y strace)');
}

/**
 * strace's flags for every trace here: the child's threads and processes (-f), without strace's own notes (-qq), and
 * stopped only at the calls traced (--seccomp-bpf; without it strace stops the child at each of its system calls,
 * which made every traced start of Node under tsx several times slower, for the same lines in the log).
 */
const straceFlags = ['-f', '-qq', '--seccomp-bpf'];

/** One fsync or fdatasync from strace -y: which call, on which file. */
interface Sync {
  call: 'fsync' | 'fdatasync';
  file: string;
}

/**
 * Runs the child under `strace -f -y -e trace=fsync,fdatasync` (the real system calls, whatever the code
 * claims) and splits its syncs at the marker file's: [while opening, commit 1, commit 2, commit 3, checkpoint].
 */
async function tracedSteps(mode: 'on' | 'off'): Promise<{ steps: Sync[][]; table: string; dataDir: string }> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-durability-')));
  cleanup(() => fs.rm(dir, { recursive: true, force: true }));
  const dataDir = path.join(dir, 'pglite');
  // The cluster is made first (a copy of the run's template, or made here), so the traced run shows a server's start
  // on an existing database.
  if (!(await pgliteFolder(dir))) await (await openDatabase({ kind: 'pglite', dataDir })).destroy();
  const marker = path.join(dir, 'marker');
  const log = path.join(dir, 'strace.log');
  await needStrace();
  const { stdout } = await run(
    'strace',
    [...straceFlags, '-y', '-e', 'trace=fsync,fdatasync', '-o', log, process.execPath].concat([
      '--conditions=@mailroom/source',
      '--import',
      'tsx',
      child,
      dataDir,
      marker,
      mode,
    ]),
    { cwd: root, timeout: 120_000 },
  );
  const syncs: Sync[] = [];
  for (const line of (await fs.readFile(log, 'utf8')).split('\n')) {
    const m = /^\d+\s+(fsync|fdatasync)\(\d+<([^>]*)>/.exec(line);
    if (m) syncs.push({ call: m[1] as Sync['call'], file: m[2]! });
  }
  const steps: Sync[][] = [[]];
  for (const s of syncs) {
    if (s.file === marker) steps.push([]);
    else steps.at(-1)!.push(s);
  }
  return { steps: steps.slice(0, 5), table: (JSON.parse(stdout) as { table: string }).table, dataDir };
}

// PGlite only: on PostgreSQL durability is the server's own (its fsync settings); the PGlite pass runs these.
describe.skipIf(Boolean(process.env.DATABASE_URL))('embedded PGlite durability', () => {
  it(
    'a commit returns only after its write-ahead log is fdatasynced, and a checkpoint fsyncs the table file it wrote',
    { timeout: 180_000 },
    async () => {
      const { steps, table, dataDir } = await tracedSteps('on');
      expect(steps).toHaveLength(5);
      const [, ...commitsAndCheckpoint] = steps;
      const commits = commitsAndCheckpoint.slice(0, 3);
      const checkpoint = commitsAndCheckpoint[3]!;
      for (const commit of commits)
        expect(commit).toContainEqual({
          call: 'fdatasync',
          file: expect.stringMatching(new RegExp(`^${dataDir}/pg_wal/[0-9A-F]{24}$`)) as string,
        });
      // The checkpoint's own WAL record, and the table's data before the checkpoint may end (and recycle WAL).
      expect(checkpoint).toContainEqual({ call: 'fsync', file: path.join(dataDir, table) });
      expect(checkpoint.some((s) => s.file.startsWith(`${dataDir}/pg_wal/`))).toBe(true);
    },
  );

  it(
    'with the group commit, no data page reaches its file before all the log written before it is fdatasynced',
    { timeout: 180_000 },
    async () => {
      await needStrace();
      const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-durability-order-')));
      cleanup(() => fs.rm(dir, { recursive: true, force: true }));
      const dataDir = path.join(dir, 'pglite');
      if (!(await pgliteFolder(dir))) await (await openDatabase({ kind: 'pglite', dataDir })).destroy();
      const log = path.join(dir, 'strace.log');
      await run(
        'strace',
        [
          ...[...straceFlags, '-y', '-s', '8', '-e', 'trace=pwrite64,fdatasync,fsync', '-o', log],
          ...[process.execPath, '--conditions=@mailroom/source', '--import', 'tsx', orderChild, dataDir],
        ],
        { cwd: root, timeout: 150_000 },
      );
      // In the order they happened: a log write counts once it has returned, a sync of it once it has returned, and
      // only if it began after that write; a data page (not zeroes: a relation grows by zeroed pages, as PostgreSQL
      // writes them without flushing the log) is checked as its write begins.
      const written = new Map<string, number>();
      const synced = new Map<string, number>();
      const syncing = new Map<string, { file: string; seq: number }>();
      let seq = 0;
      let pages = 0;
      const early: string[] = [];
      const mainThreads = new Set<string>();
      const syncThreads = new Set<string>();
      const isWal = (file: string) => new RegExp(`^${dataDir}/pg_wal/[0-9A-F]{24}$`).test(file);
      for (const line of (await fs.readFile(log, 'utf8')).split('\n')) {
        const call = /^(\d+)\s+(pwrite64|fdatasync|fsync)\(\d+<([^>]*)>(, "([^"]*)")?/.exec(line);
        const resumed = /^(\d+)\s+<\.\.\. (pwrite64|fdatasync|fsync) resumed>/.exec(line);
        const done = !line.includes('<unfinished ...>');
        if (call) {
          const [, pid, name, file, , bytes] = call as unknown as [
            string,
            string,
            string,
            string,
            string,
            string?,
          ];
          if (name === 'pwrite64' && isWal(file)) {
            if (done) written.set(file, ++seq);
            else syncing.set(pid, { file, seq: -1 });
          } else if (name === 'fdatasync' && isWal(file)) {
            if (pid) syncThreads.add(pid);
            const began = written.get(file) ?? 0;
            if (done) synced.set(file, Math.max(synced.get(file) ?? 0, began));
            else syncing.set(pid, { file, seq: began });
          } else if (
            name === 'pwrite64' &&
            file.startsWith(`${dataDir}/`) &&
            !file.startsWith(`${dataDir}/pg_wal/`)
          ) {
            mainThreads.add(pid);
            if (bytes !== undefined && bytes.replaceAll('\\0', '') !== '') {
              pages++;
              for (const [wal, at] of written)
                if ((synced.get(wal) ?? 0) < at) early.push(`${file} written before ${wal} was synced`);
            }
          }
        } else if (resumed) {
          const [, pid, name] = resumed as unknown as [string, string, string];
          const pending = syncing.get(pid);
          syncing.delete(pid);
          if (!pending) continue;
          if (name === 'pwrite64') written.set(pending.file, ++seq);
          else if (name === 'fdatasync')
            synced.set(pending.file, Math.max(synced.get(pending.file) ?? 0, pending.seq));
        }
      }
      // The case arose: pages with data were written while commits were being made, and the log's syncs ran on
      // threads other than the one writing them (libuv's pool, off the event loop).
      expect(pages).toBeGreaterThan(0);
      expect([...syncThreads].some((t) => !mainThreads.has(t))).toBe(true);
      expect(early).toEqual([]);
    },
  );

  it(
    'with PGLITE_FSYNC=false (PGlite as it ships) nothing of the database is synced',
    { timeout: 180_000 },
    async () => {
      const { steps, dataDir } = await tracedSteps('off');
      expect(steps).toHaveLength(5);
      expect(steps.flat().filter((s) => s.file.startsWith(dataDir))).toEqual([]);
    },
  );

  it(
    'the server answers 250 to a message only after the write-ahead log holding its rows is fdatasynced',
    { timeout: 240_000 },
    async () => {
      await needStrace();
      const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-durability-smtp-')));
      cleanup(() => fs.rm(dir, { recursive: true, force: true }));
      await pgliteFolder(dir);
      const db = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'pglite') });
      await migrate(db);
      const account = await createAccount(db, 'Durable');
      await db.destroy();

      const smtpPort = await freePort();
      const log = path.join(dir, 'strace.log');
      // Socket writes (-yy names the TCP connection, -s shows the reply's start) and syncs, in the order they
      // happened; the main thread, which runs PGlite and answers SMTP, does them one after another.
      const server = startServer(
        { DATA_DIR: dir, HOST: '127.0.0.1', PORT: String(await freePort()), SMTP_PORT: String(smtpPort) },
        ['strace', ...straceFlags, '-yy', '-s', '24', '-e', 'trace=fsync,fdatasync,write,writev', '-o', log],
      );
      await waitForPort(smtpPort, server, 180_000);
      for (let i = 0; i < 3; i++) {
        // A connection per message, so each message's DATA is answered 354 and then 250 on its own socket.
        const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPort, ignoreTLS: true });
        const info = await transport.sendMail({
          from: 'sender@example.org',
          to: account.email,
          subject: `durable ${i}`,
          text: 'kept',
        });
        transport.close();
        expect(info.response).toMatch(/^250 /);
      }
      // strace's child is the server; stopping the server ends strace.
      const [pid] = (await fs.readFile(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8')).split(' ');
      process.kill(Number(pid), 'SIGTERM');
      await exited(server);

      const walSyncs: number[] = [];
      const stored: { after354: boolean }[] = [];
      let dataAnswered = false;
      for (const line of (await fs.readFile(log, 'utf8')).split('\n')) {
        if (/^\d+\s+writev?\(\d+<TCP:\[127\.0\.0\.1:\d+->/.test(line) && line.includes('"354 ')) {
          dataAnswered = true;
          walSyncs.push(0);
        } else if (/^\d+\s+fdatasync\(\d+<[^>]*\/pglite\/pg_wal\/[0-9A-F]{24}>/.test(line) && dataAnswered) {
          walSyncs[walSyncs.length - 1]!++;
        } else if (/^\d+\s+writev?\(\d+<TCP:/.test(line) && line.includes('"250 2.0.0 OK: message st')) {
          stored.push({ after354: dataAnswered });
          dataAnswered = false;
        }
      }
      expect(stored).toEqual([{ after354: true }, { after354: true }, { after354: true }]);
      // Between the 354 that invites the message and the 250 that acknowledges it: at least one log sync.
      expect(walSyncs).toHaveLength(3);
      for (const n of walSyncs) expect(n).toBeGreaterThan(0);
    },
  );
});
