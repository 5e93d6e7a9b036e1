import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { ARCResult, DKIMVerifyResult, DMARCResult, SPFResult } from 'mailauth';
import type { DnsLookup } from '../core/net/index.js';
import type { AuthResults } from '../mailbox/index.js';
import { headRewriteStream } from './head-rewrite.js';

// mailauth's main entry loads its BIMI module, whose undici needs Node 22; the checks themselves load on Node 20, so
// they are taken one by one, and put together here as its `authenticate` does (BIMI left out). They load with the
// first message checked, not at start: with the public-suffix list they are ~7 MB of an idle server's heap (issue 32).
const load = createRequire(import.meta.url);
let loaded: ReturnType<typeof loadChecks> | undefined;
const checks = () => (loaded ??= loadChecks());

function loadChecks() {
  const { dkimVerify } = load('mailauth/lib/dkim/verify.js') as {
    dkimVerify(input: Readable, options: object): Promise<DKIMVerifyResult & { arc: unknown }>;
  };
  const { spf } = load('mailauth/lib/spf/index.js') as { spf(options: object): Promise<SPFResult> };
  const { arc } = load('mailauth/lib/arc/index.js') as {
    arc(data: unknown, options: object): Promise<ARCResult>;
  };
  const { evaluateDmarc } = load('mailauth/lib/dmarc/index.js') as {
    evaluateDmarc(options: object): Promise<{ response: (DMARCResult & { info?: string }) | false }>;
  };
  const { formatAuthservId } = load('mailauth/lib/tools.js') as { formatAuthservId(id: string): string };
  const { parseReceived, getClientAddress } = load('mailauth/lib/parse-received.js') as {
    parseReceived(line: string | Buffer): { from?: { value?: string } };
    getClientAddress(from: unknown): string | false;
  };
  const { foldLines } = load('libmime') as { foldLines(text: string, length: number): string };
  return {
    dkimVerify,
    spf,
    arc,
    evaluateDmarc,
    formatAuthservId,
    parseReceived,
    getClientAddress,
    foldLines,
  };
}

export interface AuthContext {
  /** The connecting client's address, its HELO name and the MAIL FROM ('' for the null sender). */
  ip: string;
  helo: string;
  sender: string;
  /**
   * LMTP behind a front MTA: the client SPF judges is the one the front MTA names in its Received field (the topmost
   * with a from clause), not the front MTA itself.
   */
  trustReceived?: boolean;
  /** Our authserv-id (RFC 8601): the MX host. */
  authservId: string;
  lookup: DnsLookup;
  /** DKIM signatures verified at most, the topmost first (the rest are reported as not checked). */
  maxSignatures: number;
  /** The whole check's time; past it every result is temperror and the message goes on. */
  timeoutMs: number;
  /** Domains whose ARC seal is trusted to vouch for mail that failed DMARC on the way (a mailing list we know). */
  trustedSealers: readonly string[];
}

export interface InboundAuth {
  results: AuthResults;
  /** The Authentication-Results field to prepend, ending in CRLF. */
  header: string;
  /** How long the checks took. */
  ms: number;
}

const hostName =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const lower = (s: string | undefined | false | null) => (s || '').toLowerCase();
const domainOf = (address: string) => lower(address.slice(address.lastIndexOf('@') + 1));

/**
 * SPF on the client's address and MAIL FROM (or HELO), DKIM on the first `maxSignatures` signatures, ARC on the
 * chain, DMARC alignment and policy on the From domain — with our DNS (`lookup`, DNS_SERVERS and a cache), within
 * `timeoutMs`. `open` gives the message from its start each time it is called. Never throws: what could not be known
 * is temperror (a DNS failure, the time running out) and the message goes on.
 */
export async function authenticateMessage(open: () => Readable, context: AuthContext): Promise<InboundAuth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), context.timeoutMs);
  });
  try {
    const checked = await Promise.race([check(open, context), timedOut]);
    const ms = performance.now() - started;
    if (checked) return { ...checked, ms };
    return unknownResults(context, 'the checks ran out of time', ms);
  } catch (err) {
    return unknownResults(
      context,
      `the checks failed: ${(err as Error).message}`,
      performance.now() - started,
    );
  } finally {
    clearTimeout(timer);
  }
}

async function check(open: () => Readable, context: AuthContext): Promise<Omit<InboundAuth, 'ms'>> {
  const { dkimVerify, parseReceived, getClientAddress, spf, arc, evaluateDmarc } = checks();
  const resolver = (name: string, rrtype: string) => context.lookup(name, rrtype);
  // The verifier sees the first signatures only: 50 signatures on one message cost 50 key lookups and body hashes.
  let signatures = 0;
  const limited = open().pipe(
    headRewriteStream({
      rewrite: (field) =>
        field.name.toLowerCase() === 'dkim-signature' && ++signatures > context.maxSignatures
          ? Buffer.concat([Buffer.from('X-Unchecked-'), field.raw])
          : undefined,
    }),
  );
  const dkim = await dkimVerify(limited, {
    resolver,
    sender: context.sender || undefined,
    minBitLength: 1024,
  });
  // An unsigned message gets one "none" row with no domain: written in our header, but no signature to list.
  const signed = dkim.results.filter((r) => r.signingDomain);
  let client = { ip: context.ip, helo: context.helo };
  if (context.trustReceived) {
    const parsed = (dkim as { headers?: { parsed: { key: string; line: Buffer | string }[] } }).headers
      ?.parsed;
    const received = parsed
      ?.filter((row) => row.key === 'received')
      .map((row) => parseReceived(row.line))
      .find((row) => row.from?.value);
    const ip = received ? getClientAddress(received.from) : false;
    if (ip) client = { ip, helo: received?.from?.value ?? '' };
  }
  // RFC 5321 §4.1.4: a HELO is a host name or an address literal; anything else is not repeated in our header.
  const helo = hostName.test(client.helo) ? client.helo : `[${client.ip}]`;
  const spfResult = await spf({
    ip: client.ip,
    helo,
    sender: context.sender || undefined,
    mta: context.authservId,
    resolver,
  });
  const arcResult = await arc(dkim.arc, { resolver, minBitLength: 1024, ip: client.ip });
  const headerFrom = dkim.headerFrom ?? [];
  const fromDomain = headerFrom.length === 1 && dkim.fromFields === 1 ? domainOf(headerFrom[0]!) : '';
  const { response: dmarc } = fromDomain
    ? await evaluateDmarc({
        headerFrom: dkim.headerFrom,
        fromFields: dkim.fromFields,
        spfDomains: spfResult.status.result === 'pass' && spfResult.domain ? [spfResult.domain] : [],
        dkimDomains: dkim.results
          .filter((r) => r.status.result === 'pass')
          .map((r) => ({
            id: r.id,
            domain: r.signingDomain,
            aligned: r.status.aligned,
            underSized: r.status.underSized,
          })),
        arcResult,
        resolver,
      })
    : { response: false as const };

  const arcSealer = lower(arcResult.signature ? arcResult.signature.signingDomain : '');
  const results: AuthResults = {
    fromDomain,
    spf: { result: spfResult.status.result as AuthResults['spf']['result'], domain: lower(spfResult.domain) },
    dkim: signed.slice(0, context.maxSignatures).map((r) => ({
      domain: lower(r.signingDomain),
      selector: r.selector ?? '',
      result: r.status.result as AuthResults['dkim'][number]['result'],
      aligned: Boolean(
        dmarc &&
        dmarc.alignment?.dkim?.result &&
        lower(dmarc.alignment.dkim.result) === lower(r.signingDomain),
      ),
    })),
    dmarc: dmarc
      ? {
          result: dmarc.status.result as AuthResults['dmarc']['result'],
          policy: (['none', 'quarantine', 'reject'].includes(dmarc.policy)
            ? dmarc.policy
            : null) as AuthResults['dmarc']['policy'],
          domain: lower(dmarc.domain),
        }
      : { result: 'none', policy: null, domain: fromDomain },
    arc: {
      result: arcResult.status.result as AuthResults['arc']['result'],
      sealer: arcSealer,
      trusted: arcResult.status.result === 'pass' && context.trustedSealers.includes(arcSealer),
    },
  };
  const rows = [
    ...dkim.results.slice(0, context.maxSignatures).map((r) => r.info),
    spfResult.info,
    arcResult.info,
    dmarc ? dmarc.info : undefined,
  ].filter((row): row is string => Boolean(row));
  return { results, header: authResultsField(context.authservId, rows) };
}

function authResultsField(authservId: string, rows: string[]): string {
  const { formatAuthservId, foldLines } = checks();
  const id = formatAuthservId(authservId);
  const value = rows.length ? rows.map((row) => foldLines(row, 160)).join(';\r\n ') : 'none';
  return `Authentication-Results: ${id};\r\n ${value}\r\n`;
}

function unknownResults(context: AuthContext, why: string, ms: number): InboundAuth {
  const comment = why.replace(/[()\\\r\n]/g, ' ').slice(0, 200);
  return {
    results: {
      fromDomain: '',
      spf: { result: 'temperror', domain: '' },
      dkim: [],
      dmarc: { result: 'temperror', policy: null, domain: '' },
      arc: { result: 'none', sealer: '', trusted: false },
    },
    header: authResultsField(context.authservId, [
      `dkim=temperror (${comment})`,
      'spf=temperror',
      'dmarc=temperror',
    ]),
    ms,
  };
}
