import net from 'node:net';
import nodemailer, { type TransportOptions } from 'nodemailer';
import pino from 'pino';
import type { Db } from '../src/core/db/index.js';
import { startIngestServer } from '../src/delivery/index.js';
import { InProcessEventBus } from '../src/core/events/index.js';
import { cleanup, createTestDb, testBlobStore, testConfig } from './_util.js';

/** The SMTP (or LMTP) ingest on a loopback port, over a fresh database and data folder. */
export async function startTestIngest(opts: { env?: Record<string, string>; lmtp?: boolean; db?: Db } = {}) {
  const db = opts.db ?? (await createTestDb());
  const config = await testConfig(opts.env);
  const blobs = await testBlobStore(db, config);
  const events = new InProcessEventBus();
  const server = await startIngestServer(
    { config, db, blobs, events, log: pino({ level: 'silent' }) },
    { port: 0, host: '127.0.0.1', lmtp: opts.lmtp ?? false },
  );
  cleanup(() => server.close());
  return { db, config, blobs, events, port: server.port };
}

/** nodemailer as the sending client, plain SMTP on loopback. */
export function smtpTransport(port: number, opts: { lmtp?: boolean } = {}) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    lmtp: opts.lmtp ?? false,
  } as TransportOptions);
  cleanup(() => transport.close());
  return transport;
}

export interface Reply {
  code: number;
  text: string;
}

/**
 * A raw SMTP conversation over a socket: each step is written as is (no line-ending fixes, no
 * dot-stuffing), then the replies that arrive within `settleMs` are collected; QUIT ends it.
 * Returns every complete reply (multi-line replies folded into one).
 */
export async function rawSession(port: number, steps: (string | Buffer)[], settleMs = 150): Promise<Reply[]> {
  const socket = net.connect(port, '127.0.0.1');
  const replies: Reply[] = [];
  let buffer = '';
  let pending: string[] = [];
  let waiter: (() => void) | undefined;
  socket.on('data', (data) => {
    buffer += data.toString('latin1');
    let nl: number;
    while ((nl = buffer.indexOf('\r\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 2);
      pending.push(line.slice(4));
      if (line[3] !== '-') {
        replies.push({ code: Number(line.slice(0, 3)), text: pending.join('\n') });
        pending = [];
        waiter?.();
      }
    }
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => undefined);
  const nextReply = (count: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      waiter = () => {
        if (replies.length >= count) {
          clearTimeout(timer);
          resolve();
        }
      };
      waiter();
    });
  await nextReply(1);
  for (const step of steps) {
    const before = replies.length;
    socket.write(step);
    await nextReply(before + 1);
    await new Promise((r) => setTimeout(r, settleMs));
  }
  socket.write('QUIT\r\n');
  await Promise.race([closed, new Promise((r) => setTimeout(r, 3000))]);
  socket.destroy();
  return replies;
}
