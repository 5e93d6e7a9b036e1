import { randomBytes } from 'node:crypto';
import { Parser } from 'htmlparser2';
import type { VerificationFailure, VerificationMethod } from '@mailroom/protocol';
import {
  DnsLookupError,
  fetchPublicPage,
  PageFetchError,
  type AddressPolicy,
  type DnsResolver,
} from '../core/net/index.js';
import { siteUrlOf, VERIFICATION_NAME } from './domain-names.js';

/**
 * Whether the owner of a domain has proven it: our TXT record on the domain, or our meta tag on its site. A failure
 * carries the contract's reason and what was found instead (the other token, an HTTP status), never an exception.
 */
export type ProofOutcome =
  { ok: true } | { ok: false; reason: Exclude<VerificationFailure, 'expired'>; found: string | null };

export interface ProofDeps {
  resolver: DnsResolver;
  /** Which non-public addresses the site may be on anyway (OUTBOUND_ALLOW_PRIVATE). */
  policy: AddressPolicy;
  /** DOMAIN_SITE_URL. */
  siteUrl: string;
  /** The whole fetch of the site (default 5 s). */
  siteTimeoutMs?: number;
}

/** A new domain's proof token (the TXT value's and the meta tag's). */
export const newDomainToken = () => randomBytes(16).toString('hex');

export const SITE_USER_AGENT = 'Mailroom-Domain-Verification/1';
const SITE_MAX_BYTES = 64 * 1024;
const SITE_MAX_REDIRECTS = 3;

/** The tokens in our TXT records among the name's records ("mailroom-verification=<token>"). */
export function verificationTokensIn(records: string[]): string[] {
  const prefix = `${VERIFICATION_NAME}=`;
  return records
    .filter((r) => r.trim().toLowerCase().startsWith(prefix))
    .map((r) => r.trim().slice(prefix.length).trim());
}

async function proveByDns(deps: ProofDeps, name: string, token: string): Promise<ProofOutcome> {
  let records: string[];
  try {
    records = await deps.resolver.txt(name);
  } catch (err) {
    if (err instanceof DnsLookupError) return { ok: false, reason: 'dns_error', found: err.code };
    throw err;
  }
  const tokens = verificationTokensIn(records);
  if (tokens.includes(token)) return { ok: true };
  if (tokens.length > 0) return { ok: false, reason: 'wrong_token', found: tokens.join(', ') };
  return { ok: false, reason: 'record_not_found', found: null };
}

/** The content of every `<meta name="mailroom-verification">` of a page, parsed as HTML (not matched by pattern). */
export function metaTokensIn(html: string): string[] {
  const tokens: string[] = [];
  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        if (tag !== 'meta') return;
        if ((attributes.name ?? '').trim().toLowerCase() !== VERIFICATION_NAME) return;
        tokens.push((attributes.content ?? '').trim());
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return tokens;
}

async function proveByMeta(deps: ProofDeps, name: string, token: string): Promise<ProofOutcome> {
  let page;
  try {
    page = await fetchPublicPage(siteUrlOf(deps.siteUrl, name), {
      resolver: deps.resolver,
      policy: deps.policy,
      timeoutMs: deps.siteTimeoutMs ?? 5000,
      maxBytes: SITE_MAX_BYTES,
      maxRedirects: SITE_MAX_REDIRECTS,
      userAgent: SITE_USER_AGENT,
    });
  } catch (err) {
    if (!(err instanceof PageFetchError)) throw err;
    const reason = {
      forbidden: 'site_forbidden',
      unreachable: 'site_unreachable',
      dns: 'dns_error',
    } as const;
    return { ok: false, reason: reason[err.reason], found: err.message };
  }
  // The tag belongs in <head>, which comes first: the first 64 KB of the page are read.
  const tokens = metaTokensIn(page.body);
  if (tokens.includes(token)) return { ok: true };
  if (tokens.length > 0) return { ok: false, reason: 'wrong_token', found: tokens.join(', ') };
  return { ok: false, reason: 'record_not_found', found: null };
}

export function proveDomain(
  deps: ProofDeps,
  method: VerificationMethod,
  name: string,
  token: string,
): Promise<ProofOutcome> {
  return method === 'dns' ? proveByDns(deps, name, token) : proveByMeta(deps, name, token);
}
