import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import type { BlobStore, SpooledFile } from '../core/blobs/index.js';
import { openDnsLookup, type DnsLookup } from '../core/net/index.js';
import type { MessageVerdict } from '../mailbox/index.js';
import { scoreMessage } from '../spam/index.js';
import { authenticateMessage, type InboundAuth } from './inbound-auth.js';
import { authservIdOf, headRewriteStream, rewriteHead, type HeadField } from './head-rewrite.js';
import { ingestMetrics, type RefusalReason } from './ingest-metrics.js';

/** The client as SMTP saw it. */
export interface InboundClient {
  ip: string;
  helo: string;
  /** MAIL FROM, '' for the null sender. */
  from: string;
  rcpt: string[];
  sessionId: string;
  /** LMTP: a front MTA hands the message over; its Received field names the real client. */
  lmtp?: boolean;
}

export type InboundDecision =
  | { kind: 'refuse'; code: 550 | 451; message: string; reason: RefusalReason }
  /**
   * `message`: what to store, our Authentication-Results prepended — the bytes themselves when the spool kept them in
   * memory (a small message), else a new spooled file; the one checked is gone.
   */
  | { kind: 'accept'; message: Buffer | SpooledFile; verdict: MessageVerdict | undefined };

/** What the checks keep between messages: the DNS cache. */
export interface InboundChecks {
  config: Config;
  lookup: DnsLookup;
}

export function openInboundChecks(config: Config): InboundChecks {
  return {
    config,
    lookup: openDnsLookup(config.dnsServers, { cacheMs: config.inbound.dnsCacheSeconds * 1000 }),
  };
}

/**
 * The checks of a message received over SMTP or LMTP, after its DATA and before its reply (issue 30): SPF, DKIM,
 * DMARC and ARC (`INBOUND_AUTH`) and, with `RSPAMD_URL`, Rspamd's score, side by side. A DMARC `p=reject` failure or
 * Rspamd's reject is refused (550 5.7.1, nothing stored), Rspamd's soft reject or greylist deferred (451 4.7.1).
 * Otherwise the message is written again with one Authentication-Results of ours on top — any that arrived claiming
 * our authserv-id removed — and goes on with its verdict; where each account puts it is spam/'s `placeMessage`.
 * DNS failures and an Rspamd that is down or slow never refuse: the results say temperror or unavailable.
 */
export async function checkInbound(
  checks: InboundChecks,
  blobs: BlobStore,
  file: SpooledFile,
  client: InboundClient,
): Promise<InboundDecision> {
  const { config } = checks;
  // An IPv4 client on a dual-stack socket is ::ffff:a.b.c.d; SPF and Rspamd want a.b.c.d.
  client = { ...client, ip: client.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '') };
  const open = () => (file.bytes ? Readable.from([file.bytes]) : createReadStream(file.path));
  const authservId = config.mxHost;
  const rspamd = config.inbound.rspamd;
  const [auth, spam] = await Promise.all([
    config.inbound.auth
      ? authenticateMessage(open, {
          ip: client.ip,
          helo: client.helo,
          sender: client.from,
          authservId,
          lookup: checks.lookup,
          maxSignatures: config.inbound.maxDkimSignatures,
          timeoutMs: config.inbound.authTimeoutMs,
          trustedSealers: config.inbound.arcTrustedSealers,
          ...(client.lmtp ? { trustReceived: true } : {}),
        })
      : undefined,
    rspamd
      ? timed('spam', () =>
          scoreMessage(rspamd, file.bytes ?? open, {
            ip: client.ip,
            helo: client.helo,
            from: client.from,
            rcpt: client.rcpt,
            queueId: client.sessionId,
          }),
        )
      : undefined,
  ]);
  if (auth) {
    ingestMetrics.checked('auth', auth.ms);
    ingestMetrics.verdict('dmarc', auth.results.dmarc.result);
  }
  if (spam) ingestMetrics.verdict('spam', spam.status === 'scored' ? spam.action : 'unavailable');

  const refusal = refusalOf(auth, spam);
  if (refusal) {
    await blobs.discardSpooled(file).catch(() => undefined);
    return refusal;
  }
  const verdict: MessageVerdict | undefined =
    auth || spam ? { ...(auth ? { auth: auth.results } : {}), ...(spam ? { spam } : {}) } : undefined;
  if (!auth) return { kind: 'accept', message: file, verdict };
  const rewrite = {
    prepend: auth.header,
    // An Authentication-Results naming us that came with the message is a forgery (RFC 8601 §5).
    rewrite: (field: HeadField) =>
      field.name.toLowerCase() === 'authentication-results' && authservIdOf(field) === authservId
        ? null
        : undefined,
  };
  if (file.bytes) {
    // A small message is rewritten in memory and stored from there (the store keeps it in the database).
    const message = rewriteHead(file.bytes, rewrite);
    await blobs.discardSpooled(file).catch(() => undefined);
    return { kind: 'accept', message, verdict };
  }
  const rewritten = blobs.openSpool();
  await pipeline(open(), headRewriteStream(rewrite), rewritten);
  await blobs.discardSpooled(file).catch(() => undefined);
  return { kind: 'accept', message: rewritten.file(), verdict };
}

function refusalOf(auth: InboundAuth | undefined, spam: MessageVerdict['spam']): InboundDecision | null {
  const dmarc = auth?.results.dmarc;
  if (dmarc && dmarc.result === 'fail' && dmarc.policy === 'reject' && !auth!.results.arc.trusted)
    return {
      kind: 'refuse',
      code: 550,
      message: `5.7.1 Message rejected: it fails the DMARC policy of ${dmarc.domain || auth!.results.fromDomain}`,
      reason: 'dmarc_reject',
    };
  if (spam?.status === 'scored') {
    if (spam.action === 'reject')
      return { kind: 'refuse', code: 550, message: '5.7.1 Message rejected as spam', reason: 'spam_reject' };
    if (spam.action === 'soft reject' || spam.action === 'greylist')
      return { kind: 'refuse', code: 451, message: '4.7.1 Try again later', reason: 'spam_defer' };
  }
  return null;
}

async function timed<T>(check: 'spam', run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    ingestMetrics.checked(check, performance.now() - started);
  }
}
