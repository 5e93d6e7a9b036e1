/**
 * What checking incoming mail costs (issue 30): the same DKIM-signed ~20 KB messages ingested over SMTP by the real
 * server twice in one run, once with INBOUND_AUTH=false and once with SPF, DKIM, DMARC and ARC checked against a DNS
 * server on loopback (test-support/dns.ts) whose answers the server keeps (the warm cache of a busy MX: one sender
 * domain). Reported: both rates, the server CPU each message costs more, and the checks' own time per message from
 * the server's histogram (mailroom_ingest_check_duration_seconds{check="auth"}): its mean, and the share within 5 ms
 * (the target: ≤ 5 ms at p95).
 *
 * Standalone: node --conditions=@mailroom/source --import tsx bench/inbound-checks.ts [count] [databaseUrl]
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { migrate, openDatabase, type Db } from '../apps/server/src/core/db/index.js';
import { ensureAccount } from '../apps/server/src/accounts/index.js';
import { startDnsServer } from '../test-support/dns.js';
import { dkimKey, dkimSigned } from '../test-support/dkim.js';
import type { BenchRow } from './types.js';
import { message } from './ingest.js';
import { cpuSecondsOf, startServer } from './server-process.js';

const CONNECTIONS = 8;
const WARM_UP = 40;
const MAILBOXES = 20;
const DOMAIN = 'bench-sender.test';

interface Pass {
  rate: number;
  cpuMs: number;
  checkMeanMs: number | null;
  within5ms: number | null;
}

export async function runInboundChecksBench(opts: {
  databaseUrl?: string;
  count?: number;
}): Promise<BenchRow[]> {
  const count = opts.count ?? 1000;
  const dns = await startDnsServer();
  try {
    const key = dkimKey();
    dns.zone.set(DOMAIN, 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
    dns.zone.set(`_dmarc.${DOMAIN}`, 'TXT', ['v=DMARC1; p=reject']);
    dns.zone.set(`sel._domainkey.${DOMAIN}`, 'TXT', [key.record]);
    const to = (i: number) => `${900_000_000_200 + (i % MAILBOXES)}@mailroom.test`;
    const raws = await Promise.all(
      Array.from({ length: WARM_UP + count }, async (_, i) =>
        dkimSigned(await message(i, to(i), DOMAIN), DOMAIN, key),
      ),
    );
    const without = await pass(opts.databaseUrl, raws, to, { INBOUND_AUTH: 'false' });
    const checked = await pass(opts.databaseUrl, raws, to, { INBOUND_AUTH: 'true', DNS_SERVERS: dns.server });
    const size = raws.reduce((a, r) => a + r.length, 0) / raws.length;
    const what = `${count} DKIM-signed ${(size / 1024).toFixed(1)} KB messages, ${CONNECTIONS} connections`;
    return [
      {
        name: 'SMTP ingest without the inbound checks (INBOUND_AUTH=false)',
        value: without.rate,
        unit: 'messages/s',
        target: '—',
        note: `${what}; server CPU ${without.cpuMs.toFixed(1)} ms/message`,
      },
      {
        name: 'SMTP ingest with SPF, DKIM, DMARC and ARC checked',
        value: checked.rate,
        unit: 'messages/s',
        target: '—',
        note: `the same messages, same run; server CPU ${checked.cpuMs.toFixed(1)} ms/message`,
      },
      {
        name: 'inbound checks: server CPU added per message',
        value: checked.cpuMs - without.cpuMs,
        unit: 'ms',
        target: '≤ 5 ms',
        ok: checked.cpuMs - without.cpuMs <= 5,
      },
      {
        name: 'inbound checks: messages checked within 5 ms (warm DNS cache)',
        value: (checked.within5ms ?? 0) * 100,
        unit: '%',
        target: '≥ 95 % (≤ 5 ms at p95)',
        ok: (checked.within5ms ?? 0) >= 0.95,
        note: `mean ${checked.checkMeanMs?.toFixed(2) ?? '?'} ms a message (the checks' histogram)`,
      },
    ];
  } finally {
    await dns.close();
  }
}

async function pass(
  baseUrl: string | undefined,
  raws: Buffer[],
  to: (i: number) => string,
  env: Record<string, string>,
): Promise<Pass> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-bench-checks-'));
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  if (baseUrl) {
    const name = `mailroom_bench_checks_${Date.now()}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropDb = async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const openDb = (): Promise<Db> =>
    databaseUrl
      ? openDatabase({ kind: 'postgres', url: databaseUrl })
      : openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
  const db = await openDb();
  await migrate(db);
  for (let i = 0; i < MAILBOXES; i++)
    await ensureAccount(db, {
      memberId: String(900_000_000_200 + i),
      name: `Bench ${i}`,
      mailDomain: 'mailroom.test',
    });
  await db.destroy();
  const server = await startServer({ dataDir, ...(databaseUrl ? { databaseUrl } : {}), env });
  try {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: server.smtpPort,
      ignoreTLS: true,
      pool: true,
      maxConnections: CONNECTIONS,
      maxMessages: Infinity,
    });
    const send = (from: number, until: number) =>
      Promise.all(
        raws
          .slice(from, until)
          .map((raw, k) =>
            transport.sendMail({ envelope: { from: `news@${DOMAIN}`, to: [to(from + k)] }, raw }),
          ),
      );
    await send(0, WARM_UP);
    const before = await histogram(server.metrics);
    const cpuBefore = await cpuSecondsOf(server.pid);
    const started = performance.now();
    await send(WARM_UP, raws.length);
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await cpuSecondsOf(server.pid)) - cpuBefore;
    const after = await histogram(server.metrics);
    transport.close();
    const n = raws.length - WARM_UP;
    const checks = after.count - before.count;
    return {
      rate: n / seconds,
      cpuMs: (cpu / n) * 1000,
      checkMeanMs: checks > 0 ? ((after.sum - before.sum) / checks) * 1000 : null,
      within5ms: checks > 0 ? (after.le5ms - before.le5ms) / checks : null,
    };
  } finally {
    await server.stop();
    await dropDb?.();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** The auth check's histogram from the server's metrics: observations, their sum, and those within 5 ms. */
async function histogram(url: string): Promise<{ count: number; sum: number; le5ms: number }> {
  const lines = (await (await fetch(url)).text()).split('\n').filter((l) => l.includes('check="auth"'));
  const value = (name: string, label = '') =>
    Number(
      lines
        .find((l) => l.startsWith(`mailroom_ingest_check_duration_seconds_${name}{`) && l.includes(label))
        ?.split(' ')
        .at(-1) ?? 0,
    );
  return { count: value('count'), sum: value('sum'), le5ms: value('bucket', 'le="0.005"') };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const count = Number(process.argv[2] ?? 1000);
  const rows = await runInboundChecksBench({
    count,
    ...(process.argv[3] ? { databaseUrl: process.argv[3] } : {}),
  });
  for (const r of rows)
    console.log(
      `${r.name}: ${r.value.toFixed(2)} ${r.unit} (target ${r.target}${r.note ? `; ${r.note}` : ''})`,
    );
}
