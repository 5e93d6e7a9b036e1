import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrate, openDatabase, type Db } from '../src/core/db/index.js';
import { createSession } from '../src/auth/index.js';
import { createAccount } from './_mail.js';
import { freePort, hasExited, waitForPort } from '../../../test-support/ports.js';
import { serveCommand } from '../../../test-support/serve-command.js';
import { cleanup } from './_util.js';

/** The real server (main.ts) in a child process, for what only a process shows: a crash, its memory. */
const root = new URL('../../../', import.meta.url).pathname;
const mainTs = path.join(root, 'apps/server/src/main.ts');

/**
 * The real server (main.ts) as a child process, the way `npm start` runs it (the serve script's variables and Node
 * flags), minus the build; `wrapper` runs it under another program (`['strace', …]`), which is then the child.
 */
export function startServer(env: Record<string, string>, wrapper: string[] = []): ChildProcess {
  const serve = serveCommand();
  const [command, ...args] = [
    ...wrapper,
    process.execPath,
    ...serve.nodeArgs,
    '--conditions=@mailroom/source',
    '--import',
    'tsx',
    mainTs,
  ];
  const child = spawn(command!, args, {
    cwd: root,
    // Several test servers run at once: none holds the default metrics port unless the test gives it one.
    env: { ...process.env, ...serve.env, METRICS_PORT: 'off', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  child.on('exit', (code, signal) => {
    if (code && code !== 0) console.error(`server exited ${code} ${signal}: ${stderr}`);
  });
  cleanup(() => {
    if (!hasExited(child)) child.kill('SIGKILL');
  });
  return child;
}

export const exited = (child: ChildProcess) =>
  hasExited(child) ? Promise.resolve() : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/**
 * Puts a copy of the slow tier's migrated embedded cluster (global-setup.ts) at `<dataDir>/pglite`, where the server
 * and the CLI keep theirs, once it has been made, and answers true; false when there is none to copy (a run outside
 * the server-slow project): the process under test then creates the cluster itself on its first start, as it would
 * anyway.
 */
export async function pgliteFolder(dataDir: string): Promise<boolean> {
  const template = process.env.MAILROOM_TEST_PGLITE_FOLDER;
  if (!template) return false;
  for (const deadline = Date.now() + 240_000; ;) {
    if (
      await fs.stat(template).then(
        () => true,
        () => false,
      )
    )
      break;
    const failed = await fs.readFile(path.join(path.dirname(template), 'failed'), 'utf8').catch(() => null);
    if (failed !== null) throw new Error(`The slow tier's PGlite template was not made: ${failed}`);
    if (Date.now() > deadline) throw new Error(`The slow tier's PGlite template was not made within 240 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await fs.cp(template, path.join(dataDir, 'pglite'), { recursive: true });
  return true;
}

/**
 * A database for the child server: a PostgreSQL database of its own, or PGlite in its data folder — a copy of the
 * migrated template when there is one (`pgliteFolder`); `{ empty: true }` leaves the folder empty, for a test of a
 * server's first start.
 */
export async function prepareDatabase(
  dataDir: string,
  opts: { empty?: boolean } = {},
): Promise<{ url: string | undefined; open: () => Promise<Db> }> {
  const base = process.env.DATABASE_URL;
  if (!base) {
    if (!opts.empty) await pgliteFolder(dataDir);
    return {
      url: undefined,
      open: () => openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') }),
    };
  }
  const name = `mailroom_crash_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanup(async () => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.href, open: () => openDatabase({ kind: 'postgres', url: url.href }) };
}

/** A real server process of a cluster test: its HTTP base URL and SMTP port; `dead` once the test killed it. */
export interface ClusterNode {
  child: ChildProcess;
  http: string;
  smtpPort: number;
  dead: boolean;
}

/**
 * `count` real servers over one database and one S3 bucket (the cluster tests): each with its own ports and data
 * folder under `root`, one shared SECRET_KEY, relaying to `relayPort`, logging errors only; `env` adds to each
 * node's environment. Answers once each takes SMTP and HTTP connections.
 */
export async function startCluster(opts: {
  count: number;
  root: string;
  databaseUrl: string;
  s3Env: Record<string, string>;
  relayPort: number;
  env?: Record<string, string>;
}): Promise<ClusterNode[]> {
  const secret = randomBytes(32).toString('base64');
  return Promise.all(
    Array.from({ length: opts.count }, async (_, i) => {
      const httpPort = await freePort();
      const smtpPort = await freePort();
      const http = `http://127.0.0.1:${httpPort}`;
      const dataDir = path.join(opts.root, `node-${i + 1}`);
      await fs.mkdir(dataDir);
      const child = startServer({
        ...opts.s3Env,
        DATABASE_URL: opts.databaseUrl,
        SECRET_KEY: secret,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(httpPort),
        PUBLIC_URL: http,
        SMTP_PORT: String(smtpPort),
        LOG_LEVEL: 'error',
        SMTP_RELAY_URL: `smtp://127.0.0.1:${opts.relayPort}`,
        ...opts.env,
      });
      await waitForPort(smtpPort, child);
      await waitForPort(httpPort, child);
      return { child, http, smtpPort, dead: false };
    }),
  );
}

/** Stops the cluster's nodes still alive (SIGTERM) and waits until they have exited. */
export async function stopCluster(nodes: ClusterNode[]): Promise<void> {
  for (const node of nodes.filter((n) => !n.dead)) {
    node.child.kill('SIGTERM');
    await exited(node.child);
  }
}

/**
 * The deployment a kill test starts, kills and restarts a real server on (the collectors' and the mail import's): a
 * data folder of its own, its database (prepareDatabase) with one account and a session of it, `prepare` run on it
 * before any server, and the ports and environment each server of the test starts with.
 */
export async function killTestDeployment<T = void>(opts: {
  name: string;
  env?: Record<string, string>;
  prepare?: (db: Db, account: Awaited<ReturnType<typeof createAccount>>, dataDir: string) => Promise<T>;
}) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), `mailroom-${opts.name}-`));
  cleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
  const database = await prepareDatabase(dataDir);
  const db = await database.open();
  let prepared: T;
  let account: Awaited<ReturnType<typeof createAccount>>;
  let token: string;
  try {
    await migrate(db);
    account = await createAccount(db, `${opts.name} test`);
    ({ token } = await createSession(db, { accountId: account.id, aliasEmail: null }, 3600_000));
    prepared = (await opts.prepare?.(db, account, dataDir)) as T;
  } finally {
    // Embedded PGlite is one process's: closed before a server opens it.
    await db.destroy();
  }
  const [httpPort, smtpPort] = [await freePort(), await freePort()];
  const http = `http://127.0.0.1:${httpPort}`;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(httpPort),
    PUBLIC_URL: http,
    SMTP_PORT: String(smtpPort),
    LOG_LEVEL: 'error',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...opts.env,
  };
  return {
    dataDir,
    account,
    prepared,
    http,
    /** The database, once the test's last server has stopped. */
    open: database.open,
    /** A server on the deployment, answering HTTP and SMTP. */
    async start(): Promise<ChildProcess> {
      const server = startServer(env);
      await waitForPort(smtpPort, server, 180_000);
      await waitForPort(httpPort, server, 180_000);
      return server;
    },
    /** The API as the account's browser calls it (JSON both ways); throws on a status other than 2xx. */
    async api<R>(route: string, init: { method?: string; body?: unknown } = {}): Promise<R> {
      const response = await fetch(`${http}${route}`, {
        method: init.method ?? 'GET',
        headers: {
          cookie: `mr_sid=${token}`,
          accept: 'application/json',
          ...(init.body === undefined
            ? {}
            : { 'content-type': 'application/json', 'x-mailroom-csrf': '1', origin: http }),
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${route}: ${response.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as R;
    },
  };
}

/**
 * Looks every `everyMs` until `look` answers something other than undefined, then SIGKILLs the server and waits until
 * it is gone; answers what `look` did, or undefined (server left running) if nothing came within `timeoutMs`.
 */
export async function killWhen<R>(
  server: ChildProcess,
  look: () => Promise<R | undefined>,
  { everyMs, timeoutMs = 180_000 }: { everyMs: number; timeoutMs?: number },
): Promise<R | undefined> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    const seen = await look();
    if (seen !== undefined) {
      server.kill('SIGKILL');
      await exited(server);
      return seen;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return undefined;
}
