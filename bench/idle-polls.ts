/**
 * What an idle server costs its database and its CPU (issue 31: the due-item poll for scheduled sends, snoozes and
 * follow-ups joined the job workers): one server with the default settings and an empty mailbox store, left alone
 * for `seconds`. On PostgreSQL the transactions its database commits (pg_stat_database.xact_commit: each poll of a
 * job worker is one); on both, the server's CPU time. `env` compares settings (DUE_POLL_MS=60000: the due poll's share).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { BenchRow } from './types.js';
import { cpuSecondsOf, startServer } from './server-process.js';

async function commits(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'select xact_commit::text as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

export async function runIdlePollsBench(opts: {
  databaseUrl?: string;
  seconds?: number;
}): Promise<BenchRow[]> {
  const seconds = opts.seconds ?? 30;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-idle-'));
  const server = await startServer({
    dataDir,
    ...(opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : {}),
  });
  try {
    // Past the start's own work (migrations, the first pass of every worker).
    await new Promise((r) => setTimeout(r, 5_000));
    const cpu0 = await cpuSecondsOf(server.pid);
    const tx0 = opts.databaseUrl ? await commits(opts.databaseUrl) : 0;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const cpu = ((await cpuSecondsOf(server.pid)) - cpu0) / seconds;
    // The two look-ups of the counter are transactions too.
    const tx = opts.databaseUrl ? ((await commits(opts.databaseUrl)) - tx0 - 1) / seconds : NaN;
    const rows: BenchRow[] = [
      {
        name: 'idle server: CPU (all job workers polling, due items every DUE_POLL_MS)',
        value: cpu * 1000,
        unit: 'ms/s',
        target: 'small',
      },
    ];
    if (opts.databaseUrl)
      rows.push({
        name: 'idle server: database transactions (one per job-worker poll)',
        value: tx,
        unit: '/s',
        target: 'small',
      });
    return rows;
  } finally {
    await server.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
