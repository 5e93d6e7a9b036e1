import type net from 'node:net';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import { startSendingJobs } from '../src/sending/index.js';
import type { Browser } from './_util.js';
import { cleanup } from './_util.js';
import type { TestApp } from './_actions.js';
import { apiPath } from './_client.js';

export interface SinkMessage {
  from: string;
  to: string[];
  raw: Buffer;
  /** When its data had all arrived (Date.now()). */
  at: number;
}

/**
 * A second SMTP server on loopback standing in for the relay: it records every message it
 * accepts. `reject(rcpt)` returns a reply (e.g. 550) to refuse a recipient.
 */
export async function startSink(
  opts: {
    port?: number;
    reject?: (rcpt: string) => { code: number; message: string } | undefined;
    /** Each message is answered this long after its last byte (a slow relay). */
    delayMs?: number;
  } = {},
) {
  const messages: SinkMessage[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    // The relay pool keeps its connections open; the test should not wait 30 s for them at the end.
    closeTimeout: 100,
    onRcptTo(address, _session, callback) {
      const refusal = opts.reject?.(address.address);
      if (refusal) {
        const err = new Error(refusal.message) as Error & { responseCode: number };
        err.responseCode = refusal.code;
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
          at: Date.now(),
        });
        const accept = () => {
          for (const w of waiters.splice(0)) w();
          callback();
        };
        if (opts.delayMs) setTimeout(accept, opts.delayMs);
        else accept();
      });
    },
  });
  // A client that dies mid-session (a killed server's relay connection) resets its socket: not the sink's failure.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  let closed = false;
  const close = () =>
    closed
      ? Promise.resolve()
      : ((closed = true), new Promise<void>((resolve) => server.close(() => resolve())));
  cleanup(close);
  return {
    port,
    messages,
    close,
    /** Resolves once the sink holds `count` messages (or rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`sink has ${messages.length} of ${count} messages`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return messages;
    },
  };
}

/** The outbox job and sweep of main.ts, over the test app's parts. */
export function startJobs(ctx: TestApp) {
  const jobs = startSendingJobs({ ...ctx, log: pino({ level: 'silent' }) });
  cleanup(() => jobs.stop());
  return jobs;
}

export async function until<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const parse = (raw: Buffer) => simpleParser(raw);

/** The first address of a parsed header (mailparser gives one object, or one per header line). */
export const firstAddress = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field[0] : field)?.value[0]?.address;

/** A compose request as the web client sends it; `to` as plain addresses. */
export function compose(from: string, to: string[], extra: Record<string, unknown> = {}) {
  return {
    subject: 'Hello',
    fields: { from: { email: from, name: '' }, to: to.map((email) => ({ email, name: '' })) },
    content: '<p>Hello there</p>',
    content_type: 'text/html',
    ...extra,
  };
}

/** POST attachments with one file part, as a browser's FormData would. */
export async function upload(
  app: FastifyInstance,
  browser: Browser,
  name: string,
  content: Buffer,
  contentType = 'application/pdf',
) {
  const boundary = `----mailroomtest${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const payload = Buffer.concat([head, content, tail]);
  const response = await app.inject({
    method: 'POST',
    url: apiPath('uploadAttachment'),
    headers: {
      host: 'mailroom.localhost',
      origin: 'http://mailroom.localhost',
      'x-mailroom-csrf': '1',
      cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.statusCode, body: response.json() as any };
}
