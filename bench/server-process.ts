/**
 * The real server as a child process, for the benchmarks that measure it from outside (ingest,
 * memory). It runs what `npm start` runs: the bundle apps/server/build/main.js (built here first: `tsc -b`, a
 * no-op when it is up to date, then the bundle), not the sources through tsx, whose loader
 * thread and per-worker TypeScript compilation would add memory production never spends; with the variables and
 * Node flags of the `serve` script (test-support/serve-command.ts), so memory is measured as it is run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { freePort, hasExited, waitForPort } from '../test-support/ports.js';
import { buildServer, serveCommand } from '../test-support/serve-command.js';

const root = new URL('../', import.meta.url).pathname;
let built = false;

/** Resident memory now and its high-water mark since the process started (VmHWM), in bytes. */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** User + system CPU time of a process (all its threads), from /proc. */
export async function cpuSecondsOf(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

export interface ServerProcess {
  pid: number;
  /** The HTTP origin, also the server's PUBLIC_URL (so the embedded IdP's sign-in works against it). */
  http: string;
  smtpPort: number;
  /** GET /metrics of the server (its metrics listener). */
  metrics: string;
  /** Milliseconds from spawn until the SMTP port accepted connections (the last thing main.ts opens). */
  startMs: number;
  stop(): Promise<void>;
}

export async function startServer(opts: {
  dataDir: string;
  databaseUrl?: string;
  /** Node options for the server process (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** More environment for the server (e.g. OUTBOUND_ALLOW_PRIVATE for a loopback IMAP server). */
  env?: Record<string, string>;
}): Promise<ServerProcess> {
  if (!built) {
    buildServer();
    built = true;
  }
  const serve = serveCommand();
  const [smtpPort, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const http = `http://127.0.0.1:${httpPort}`;
  const started = performance.now();
  const server: ChildProcess = spawn(
    process.execPath,
    [...serve.nodeArgs, ...(opts.nodeArgs ?? []), serve.entry],
    {
      cwd: root,
      env: {
        ...process.env,
        ...serve.env,
        DATA_DIR: opts.dataDir,
        HOST: '127.0.0.1',
        PORT: String(httpPort),
        PUBLIC_URL: http,
        SMTP_PORT: String(smtpPort),
        // Prometheus metrics on their own loopback listener (METRICS_PORT), as in production.
        METRICS_PORT: String(metricsPort),
        MAIL_DOMAIN: 'mailroom.test',
        LOG_LEVEL: 'error',
        DATABASE_URL: opts.databaseUrl ?? '',
        ...opts.env,
      },
      // stderr is kept only for a failed start; oidc-provider warns about the Node version on every start.
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => server.once('exit', resolve));
  const alive = () => !hasExited(server);
  try {
    await waitForPort(smtpPort, server, 180_000);
  } catch (err) {
    if (alive()) server.kill('SIGKILL');
    await exited;
    throw new Error(`${(err as Error).message}\n${stderr}`, { cause: err });
  }
  return {
    pid: server.pid!,
    http,
    /** GET /metrics of the server (its metrics listener). */
    metrics: `http://127.0.0.1:${metricsPort}/metrics`,
    smtpPort,
    startMs: performance.now() - started,
    async stop() {
      if (alive()) server.kill('SIGTERM');
      await exited;
    },
  };
}
