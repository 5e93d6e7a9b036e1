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
import { deliverMessage, sendOutgoing, type DeliveryOutcome, type IngestDeps } from './deliver.js';
import { LineEndingCheck } from './line-endings.js';
import { checkInbound, openInboundChecks } from './inbound-check.js';
import { ingestMetrics, type RefusalReason } from './ingest-metrics.js';
import {
  resolveRecipient,
  splitAddress,
  srsKeyOf,
  srsReverse,
  type LocalRecipient,
} from '../addresses/index.js';

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
  /**
   * Stops accepting connections; a session receiving or storing a message gets up to `graceMs` (default 30 s) to get
   * its reply, every other session is told 421 at once (as is a session's next command). Resolves once every
   * message in hand has been answered or its store has ended — a session cut at the deadline got 421, never 250.
   */
  close(graceMs?: number): Promise<void>;
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
  const protocol = lmtp ? 'lmtp' : 'smtp';
  // Sessions between DATA and its reply, and the stores still running (a store outlives a session cut at shutdown).
  const inData = new Set<string>();
  const storing = new Set<Promise<unknown>>();
  let closing = false;
  const largeSlots = new LargeMessageSlots(config.smtpMaxLargeMessages);
  const busy = () => reply(452, '4.3.1 Too many large messages at once, try again later');
  // Resolutions made at RCPT, keyed by the address object smtp-server keeps in the envelope.
  const resolved = new WeakMap<SMTPServerAddress, LocalRecipient>();
  // Recipients that are the SRS addresses of mail our filters forwarded (addresses/srs.ts): bounces, taken and dropped.
  const srsBounces = new WeakSet<SMTPServerAddress>();
  const srsKey = srsKeyOf(deps.secrets);
  // SPF, DKIM, DMARC and ARC, and Rspamd: their DNS cache lives as long as the listener.
  const checks = openInboundChecks(config);
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
        ingestMetrics.refused(protocol, 'mail', 'bad_sender');
        return callback(reply(501, '5.1.7 Bad sender address syntax'));
      }
      // RFC 1870: a large SIZE when every large-message slot is taken can be refused at once.
      if (announcedSize(session, address) > config.smtpLargeMessageSize && !largeSlots.free) {
        ingestMetrics.refused(protocol, 'mail', 'busy');
        return callback(busy());
      }
      callback();
    },

    onRcptTo(address, session, callback) {
      const refuse = (reason: RefusalReason, err: Error) => {
        ingestMetrics.refused(protocol, 'rcpt', reason);
        callback(err);
      };
      if (controlChars.test(address.address) || !splitAddress(address.address)) {
        return refuse('bad_recipient', reply(501, '5.1.3 Bad recipient address syntax'));
      }
      if (session.envelope.rcptTo.length >= MAX_RECIPIENTS) {
        return refuse('too_many_recipients', reply(452, '4.5.3 Too many recipients'));
      }
      // The envelope sender of a message a filter forwarded. Only an address we made, not expired, and only for a
      // bounce (the null sender) is taken: the bounce is dropped — the failure is the forwarding's, and the
      // original sender had our 250 — so the address relays nothing. A forged or expired one is an unknown user.
      const srs = srsReverse(srsKey, address.address, config.mailDomain);
      if (srs.kind === 'invalid') return refuse('unknown_recipient', reply(550, '5.1.1 No such user here'));
      if (srs.kind === 'valid') {
        if (session.envelope.mailFrom && session.envelope.mailFrom.address !== '')
          return refuse(
            'unknown_recipient',
            reply(550, '5.7.1 This address takes only delivery status notifications'),
          );
        srsBounces.add(address);
        return callback();
      }
      resolveRecipient(deps.db, config, address.address).then(
        (resolution) => {
          if (resolution.kind === 'invalid')
            return refuse('bad_recipient', reply(501, '5.1.3 Bad recipient address syntax'));
          if (resolution.kind === 'foreign')
            return refuse('relay_denied', reply(550, '5.7.1 Relay access denied'));
          if (resolution.kind === 'unknown') {
            return refuse('unknown_recipient', reply(550, '5.1.1 No such user here'));
          }
          const { recipient } = resolution;
          const size = announcedSize(session);
          if (size > recipient.quotaLimitBytes) {
            return refuse('quota_permanent', reply(552, '5.2.2 Message is larger than the mailbox quota'));
          }
          if (recipient.quotaUsedBytes + Math.max(size, 1) > recipient.quotaLimitBytes) {
            return refuse('quota', reply(452, '4.2.2 Mailbox full, try again later'));
          }
          resolved.set(address, recipient);
          callback();
        },
        (err: unknown) => {
          deps.log.error({ err }, 'resolving a recipient failed');
          refuse('temporary', reply(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },

    /**
     * DATA goes to a file in the blob store's temporary area as it arrives (hashed on the way,
     * fsynced), never into memory; the file is parsed from disk and moved into the store, or
     * removed. Past the large-message size a message needs one of the large-message slots; when
     * none is free its bytes are read and dropped and the sender is told to retry.
     */
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, done) {
      inData.add(session.id);
      let measured: ((result: 'accepted' | 'refused') => void) | undefined;
      // Every reply to DATA passes here: the session is no longer in hand, the message counted and timed.
      const callback = (err: Error | null, message?: string) => {
        inData.delete(session.id);
        measured?.(err ? 'refused' : 'accepted');
        done(err, message);
        // Stopping: the session has its reply; it is told 421 now rather than at its next command.
        if (closing) endSession(session.id);
      };
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
        measured = ingestMetrics.received(protocol, received);
        const release = () => {
          if (large) largeSlots.release();
          large = false;
        };
        const refuse = (reason: RefusalReason, err: Error) => {
          ingestMetrics.refused(protocol, 'data', reason);
          spool.destroy();
          release();
          callback(err);
        };
        if (stream.sizeExceeded)
          return refuse(
            'too_large',
            reply(552, `5.3.4 Message exceeds the size limit of ${config.maxMessageSize} bytes`),
          );
        if (noSlot) return refuse('busy', busy());
        if (lines.bare) {
          return refuse(
            'bare_line_ending',
            reply(550, `5.6.0 Bare ${lines.bare} in message data; lines must end with CRLF (RFC 5321 2.3.8)`),
          );
        }
        const { rcptTo } = session.envelope;
        const bounce = rcptTo.map((a) => srsBounces.has(a));
        const recipients = rcptTo.filter((_, i) => !bounce[i]).map((a) => resolved.get(a));
        if (spoolFailed || recipients.some((r) => r === undefined)) {
          if (spoolFailed) deps.log.error({ err: spoolFailed }, 'spooling a message failed');
          return refuse('temporary', reply(451, '4.3.0 Temporary failure, try again later'));
        }
        if (bounce.some(Boolean))
          deps.log.info(
            { recipients: rcptTo.filter((_, i) => bounce[i]).map((a) => a.address) },
            'a bounce of forwarded mail was dropped',
          );
        // Each RCPT's outcome in order: the dropped bounces' are OK.
        const withBounces = (outcomes: DeliveryOutcome[]): DeliveryOutcome[] => {
          let next = 0;
          return bounce.map((b) => (b ? { ok: true } : outcomes[next++]!));
        };
        if (!recipients.length) {
          spool.destroy();
          release();
          const ok = outcomeReply({ ok: true }) as string;
          return callback(null, lmtp ? (rcptTo.map(() => ok) as unknown as string) : ok);
        }
        spool.end();
        const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const store = finished(spool)
          .then(() =>
            checkInbound(checks, deps.blobs, spool.file(), {
              ip: session.remoteAddress,
              helo: session.hostNameAppearsAs ?? '',
              from: envelopeFrom,
              rcpt: rcptTo.map((a) => a.address),
              sessionId: session.id,
              lmtp,
            }),
          )
          .then(async (decision) => {
            if (decision.kind === 'refuse') return decision;
            const { outcomes, outgoing } = await deliverMessage(
              deps,
              decision.message,
              recipients as LocalRecipient[],
              lmtp ? 'each' : 'together',
              { from: envelopeFrom, ...(decision.verdict ? { verdict: decision.verdict } : {}) },
            );
            // What the filters ask to send is queued before the reply, as the message is stored before it.
            await sendOutgoing(outgoing, deps.sendFilterActions);
            return outcomes;
          })
          .then(
            (delivered) => {
              release();
              if (!Array.isArray(delivered)) {
                // Refused by the checks (DMARC reject, Rspamd's reject or deferral): nothing was stored.
                ingestMetrics.refused(protocol, 'data', delivered.reason);
                const err = reply(delivered.code, delivered.message);
                return lmtp ? callback(null, rcptTo.map(() => err) as unknown as string) : callback(err);
              }
              const outcomes = withBounces(delivered);
              if (lmtp) {
                for (const outcome of outcomes)
                  if (!outcome.ok) ingestMetrics.refused(protocol, 'data', outcome.failure);
                // smtp-server's LMTP mode takes one response per recipient (the typings say string).
                return callback(null, outcomes.map(outcomeReply) as unknown as string);
              }
              const outcome = worst(outcomes);
              if (!outcome.ok) ingestMetrics.refused(protocol, 'data', outcome.failure);
              const result = outcomeReply(outcome);
              if (typeof result === 'string') callback(null, result);
              else callback(result);
            },
            (err: unknown) => {
              spool.destroy();
              release();
              deps.log.error({ err }, 'delivering a message failed');
              ingestMetrics.refused(protocol, 'data', 'temporary');
              callback(reply(451, '4.3.0 Temporary failure storing the message, try again later'));
            },
          );
        storing.add(store);
        void store.finally(() => storing.delete(store));
      });
    },
  };

  const server = new SMTPServer(serverOptions);
  const endSession = (id: string) => {
    for (const connection of server.connections) {
      if (connection.session.id !== id) continue;
      connection.send(421, `${config.mailDomain} Service shutting down, try again later`);
      connection.close();
    }
  };
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
    async close(graceMs = 30_000) {
      if (closing) return;
      closing = true;
      server.options.closeTimeout = graceMs;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A session between messages would only hear 421 at its next command: it hears it now.
      for (const connection of server.connections)
        if (!inData.has(connection.session.id)) endSession(connection.session.id);
      await closed;
      // Past the grace smtp-server has told the sessions still in hand 421; their stores still end before the database closes.
      await Promise.allSettled([...storing]);
    },
  };
}
