import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LaunchOptions } from 'playwright-core';
import { accepts, freePort } from '../../../test-support/ports.js';

// The processes the end-to-end tests drive, without Vitest's test API, so that the global setup (one server for
// the whole run) and a test file needing a server of its own (_harness.ts startServer) start them the same way.

export const repoRoot = new URL('../../../', import.meta.url).pathname;

export interface ServerInfo {
  url: string;
  smtpPort: number;
  /** The server's data folder; in cluster mode (_cluster.ts) the folder holding every node's and the bucket's. */
  dataDir: string;
  /** In cluster mode, the first node's data folder (its admin socket, for the operator CLI). */
  adminDataDir?: string;
  /** In cluster mode, the PostgreSQL database the nodes share. */
  databaseUrl?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built server every test file shares (sharedServer() in _harness.ts). */
    server: ServerInfo;
  }
}

/**
 * Starts the built server (`apps/server/build/main.js`, the bundle) with a fresh data folder (or env.DATA_DIR), as `npm start` would, and waits
 * until both its HTTP and SMTP ports answer. `stop()` ends it and removes the data folder.
 */
export async function spawnServer(
  env: Record<string, string> = {},
): Promise<ServerInfo & { stop: () => Promise<void> }> {
  // A port freePort() found free can be taken by someone else (another file's server, an outgoing connection's
  // ephemeral port) before the server binds it; such a start is tried again on new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnServerOnce(env);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function spawnServerOnce(
  env: Record<string, string>,
): Promise<ServerInfo & { stop: () => Promise<void> }> {
  const port = await freePort();
  const smtpPort = await freePort();
  const dataDir = env.DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-e2e-')));
  await fs.mkdir(dataDir, { recursive: true });
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'apps/server/build/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      SMTP_PORT: String(smtpPort),
      // Nothing here scrapes metrics; several servers run at once, so none holds the default metrics port.
      METRICS_PORT: 'off',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      // Mail goes at once unless a test is about the undo hold (it sets undo_send_seconds in Settings).
      UNDO_SEND_DEFAULT_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  // The server's errors go to the run's output as they come, and the last of them into the error if it exits.
  let stderrTail = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${stderrTail}`);
      try {
        if ((await fetch(`${url}/healthz`)).ok && (await accepts(smtpPort))) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, smtpPort, dataDir, stop };
}

/** Debian's Chromium through playwright-core (no browser downloads here). */
export const chromiumOptions: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
