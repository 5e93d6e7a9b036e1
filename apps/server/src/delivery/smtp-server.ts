import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { finished } from 'node:stream/promises';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerOptions,
  type SMTPServerSession,
} from 'smtp-server';
import { deliverMessage, type DeliveryOutcome, type IngestDeps } from './deliver.js';
import { LineEndingCheck } from './line-endings.js';
import { resolveRecipient, splitAddress, type LocalRecipient } from '../addresses/index.js';

/** RFC 5321 §4.5.3.1.8: a server must take at least 100 recipients; more is a spam run. */
const MAX_RECIPIENTS = 100;

function reply(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u001f\u007f]/;

function outcomeReply(outcome: DeliveryOutcome): Error | string {
  if (outcome.ok) return '2.0.0 OK: message stored';
  switch (outcome.failure) {
    case 'quota':
      return reply(452, '4.2.2 Mailbox full, try again later');
    case 'quota_permanent':
      return reply(552, '5.2.2 Message is larger than the mailbox quota');
    case 'temporary':
      return reply(451, '4.3.0 Temporary failure storing the message, try again later');
  }
}

/** The worst of several outcomes: what a single SMTP reply must say. */
function worst(outcomes: DeliveryOutcome[]): DeliveryOutcome {
  const rank = (o: DeliveryOutcome) => (o.ok ? 0 : { quota: 1, quota_permanent: 2, temporary: 3 }[o.failure]);
  return outcomes.reduce((a, b) => (rank(b) > rank(a) ? b : a), { ok: true });
}

/** The SIZE parameter of MAIL FROM (RFC 1870), 0 when absent or nonsense. */
function announcedSize(session: SMTPServerSession, mailFrom = session.envelope.mailFrom): number {
  const args = mailFrom ? (mailFrom.args as { SIZE?: string }) : {};
  const size = Number(args.SIZE ?? 0);
  return Number.isSafeInteger(size) && size > 0 ? size : 0;
}

/** Slots for messages over the large-message size being received and stored at once. */
class LargeMessageSlots {
  private taken = 0;
  constructor(private readonly max: number) {}
  get free(): boolean {
    return this.taken < this.max;
  }
  take(): boolean {
    if (!this.free) return false;
    this.taken++;
    return true;
  }
  release(): void {
    this.taken--;
  }
}

export interface IngestServer {
  /** The port actually listened on (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * Inbound SMTP (or LMTP for a front MTA): we are the MX for our own domains, so there is no
 * authentication and nothing is relayed. Every check that can be made before the message is
 * sent is made at RCPT; a message gets its 250 only after it is durably stored for all its
 * recipients.
 */
export async function startIngestServer(
  deps: IngestDeps,
  options: { port: number; host: string; lmtp?: boolean },
): Promise<IngestServer> {
  const { config } = deps;
  const lmtp = options.lmtp ?? false;
  const largeSlots = new LargeMessageSlots(config.smtpMaxLargeMessages);
  const busy = () => reply(452, '4.3.1 Too many large messages at once, try again later');
  // Resolutions made at RCPT, keyed by the address object smtp-server keeps in the envelope.
  const resolved = new WeakMap<SMTPServerAddress, LocalRecipient>();
  const tls =
    config.smtpTls && !lmtp
      ? { key: await fs.readFile(config.smtpTls.keyFile), cert: await fs.readFile(config.smtpTls.certFile) }
      : undefined;

  const serverOptions: SMTPServerOptions = {
    lmtp,
    name: config.mailDomain,
    banner: 'Mailroom',
    size: config.maxMessageSize,
    secure: false,
    ...(tls ?? {}),
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    logger: false,
    // RFC 5321 §4.5.3.2: a server should wait at least 5 minutes for the client.
    socketTimeout: 5 * 60_000,
    // A message is spooled to disk as it arrives, so a connection costs its buffers only; bound how many.
    maxClients: config.smtpMaxConnections,

    onMailFrom(address, session, callback) {
      if (controlChars.test(address.address)) {
        return callback(reply(501, '5.1.7 Bad sender address syntax'));
      }
      // RFC 1870: a large SIZE when every large-message slot is taken can be refused at once.
      if (announcedSize(session, address) > config.smtpLargeMessageSize && !largeSlots.free)
        return callback(busy());
      callback();
    },

    onRcptTo(address, session, callback) {
      if (controlChars.test(address.address) || !splitAddress(address.address)) {
        return callback(reply(501, '5.1.3 Bad recipient address syntax'));
      }
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
        return callback(reply(452, '4.5.3 Too many recipients'));
      }
      resolveRecipient(deps.db, config, address.address).then(
        (resolution) => {
          if (resolution.kind === 'invalid')
            return callback(reply(501, '5.1.3 Bad recipient address syntax'));
          if (resolution.kind === 'foreign') return callback(reply(550, '5.7.1 Relay access denied'));
          if (resolution.kind === 'unknown') {
            return callback(reply(550, '5.1.1 No such user here'));
          }
          const { recipient } = resolution;
          const size = announcedSize(session);
          if (size > recipient.quotaLimitBytes) {
            return callback(reply(552, '5.2.2 Message is larger than the mailbox quota'));
          }
          if (recipient.quotaUsedBytes + Math.max(size, 1) > recipient.quotaLimitBytes) {
            return callback(reply(452, '4.2.2 Mailbox full, try again later'));
          }
          resolved.set(address, recipient);
          callback();
        },
        (err: unknown) => {
          deps.log.error({ err }, 'resolving a recipient failed');
          callback(reply(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },

    /**
     * DATA goes to a file in the blob store's temporary area as it arrives (hashed on the way,
     * fsynced), never into memory; the file is parsed from disk and moved into the store, or
     * removed. Past the large-message size a message needs one of the large-message slots; when
     * none is free its bytes are read and dropped and the sender is told to retry.
     */
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const lines = new LineEndingCheck();
      const spool = deps.blobs.openSpool();
      let spoolFailed: Error | undefined;
      let large = false;
      let noSlot = false;
      let received = 0;
      spool.on('error', (err) => {
        spoolFailed ??= err;
        stream.resume();
      });
      stream.on('data', (chunk: Buffer) => {
        lines.push(chunk);
        received += chunk.length;
        // Past the limit smtp-server replies 552 itself; stop keeping the bytes.
        if (stream.sizeExceeded || spoolFailed || noSlot) return;
        if (!large && received > config.smtpLargeMessageSize) {
          large = largeSlots.take();
          if (!large) {
            noSlot = true;
            spool.destroy();
            return;
          }
        }
        if (!spool.write(chunk)) {
          stream.pause();
          spool.once('drain', () => stream.resume());
        }
      });
      stream.on('end', () => {
        lines.end();
        const release = () => {
          if (large) largeSlots.release();
          large = false;
        };
        const refuse = (err: Error) => {
          spool.destroy();
          release();
          callback(err);
        };
        if (stream.sizeExceeded)
          return refuse(reply(552, `5.3.4 Message exceeds the size limit of ${config.maxMessageSize} bytes`));
        if (noSlot) return refuse(busy());
        if (lines.bare) {
          return refuse(
            reply(550, `5.6.0 Bare ${lines.bare} in message data; lines must end with CRLF (RFC 5321 2.3.8)`),
          );
        }
        const recipients = session.envelope.rcptTo.map((a) => resolved.get(a));
        if (spoolFailed || recipients.some((r) => r === undefined)) {
          if (spoolFailed) deps.log.error({ err: spoolFailed }, 'spooling a message failed');
          return refuse(reply(451, '4.3.0 Temporary failure, try again later'));
        }
        spool.end();
        finished(spool)
          .then(() =>
            deliverMessage(deps, spool.file(), recipients as LocalRecipient[], lmtp ? 'each' : 'together', {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            }),
          )
          .then(
            (outcomes) => {
              release();
              if (lmtp) {
                // smtp-server's LMTP mode takes one response per recipient (the typings say string).
                return callback(null, outcomes.map(outcomeReply) as unknown as string);
              }
              const result = outcomeReply(worst(outcomes));
              if (typeof result === 'string') callback(null, result);
              else callback(result);
            },
            (err: unknown) => {
              spool.destroy();
              release();
              deps.log.error({ err }, 'delivering a message failed');
              callback(reply(451, '4.3.0 Temporary failure storing the message, try again later'));
            },
          );
      });
    },
  };

  const server = new SMTPServer(serverOptions);
  server.on('error', (err) => deps.log.warn({ err }, 'SMTP connection error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  deps.log.info({ port, lmtp, starttls: Boolean(tls) }, `${lmtp ? 'LMTP' : 'SMTP'} ingest listening`);
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
