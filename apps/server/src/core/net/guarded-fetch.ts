import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressPolicy } from './address-policy.js';
import { DnsLookupError, type DnsResolver } from './dns.js';

/**
 * A GET of a page on someone else's site (a domain's verification meta tag), by the image proxy's rules: public
 * addresses only unless OUTBOUND_ALLOW_PRIVATE allows them, every redirect checked again (at most `maxRedirects`), one
 * deadline for the whole fetch, at most `maxBytes` read. The host is resolved through the service's DnsResolver
 * (DNS_SERVERS) and the connection goes to the address checked — the Host header and TLS name stay the site's — so
 * nothing between the check and the connection can send it elsewhere.
 */
export interface PageFetchOptions {
  resolver: DnsResolver;
  policy: AddressPolicy;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  userAgent: string;
}

/** forbidden: a non-public address; unreachable: no answer, timeout, TLS or HTTP error; dns: the resolver failed. */
export type PageFetchFailure = 'forbidden' | 'unreachable' | 'dns';

export class PageFetchError extends Error {
  constructor(
    readonly reason: PageFetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'PageFetchError';
  }
}

export interface FetchedPage {
  /** Where the page was found, after redirects. */
  url: string;
  /** The first maxBytes of the body, as UTF-8. */
  body: string;
  /** Whether the body went on past maxBytes (and was cut there). */
  truncated: boolean;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

async function addressOf(target: URL, options: PageFetchOptions): Promise<string> {
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    if (!options.policy.permitted(host)) throw new PageFetchError('forbidden', `${host} is not a public address`);
    return host;
  }
  let addresses: string[];
  try {
    addresses = await options.resolver.addresses(host);
  } catch (err) {
    if (err instanceof DnsLookupError) throw new PageFetchError('dns', err.message);
    throw err;
  }
  if (addresses.length === 0) throw new PageFetchError('unreachable', `${host} has no address`);
  // Every address the name has must be public: a site cannot be half inside the network.
  const refused = addresses.find((a) => !options.policy.permitted(a));
  if (refused !== undefined) throw new PageFetchError('forbidden', `${host} points at ${refused}, not a public address`);
  return addresses[0]!;
}

function get(target: URL, address: string, options: PageFetchOptions, signal: AbortSignal) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const secure = target.protocol === 'https:';
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const request = (secure ? https : http).request(
      {
        host: address,
        port: target.port || (secure ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        agent: false,
        // The site's own name for its virtual host and its certificate.
        ...(secure && !net.isIP(host) ? { servername: host } : {}),
        headers: { host: target.host, 'user-agent': options.userAgent, accept: 'text/html' },
        signal,
      },
      resolve,
    );
    request.on('error', reject);
    request.end();
  });
}

async function readCapped(response: http.IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    seen += chunk.length;
    if (seen > maxBytes) {
      response.destroy();
      return { body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

export async function fetchPublicPage(url: string, options: PageFetchOptions): Promise<FetchedPage> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new PageFetchError('unreachable', 'not a valid address');
  }
  const failure = (err: unknown): PageFetchError => {
    if (err instanceof PageFetchError) return err;
    if (signal.aborted) return new PageFetchError('unreachable', `no answer within ${options.timeoutMs} ms`);
    return new PageFetchError('unreachable', (err as Error).message);
  };
  try {
    for (let redirects = 0; ; redirects++) {
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new PageFetchError('unreachable', `${target.protocol} is not fetched`);
      const address = await addressOf(target, options);
      if (signal.aborted) throw new PageFetchError('unreachable', `no answer within ${options.timeoutMs} ms`);
      const response = await get(target, address, options, signal);
      const status = response.statusCode ?? 0;
      if (redirectStatuses.has(status) && response.headers.location) {
        response.resume();
        if (redirects >= options.maxRedirects)
          throw new PageFetchError('unreachable', `more than ${options.maxRedirects} redirects`);
        try {
          target = new URL(response.headers.location, target);
        } catch {
          throw new PageFetchError('unreachable', 'a redirect to an invalid address');
        }
        continue;
      }
      if (status < 200 || status > 299) {
        response.resume();
        throw new PageFetchError('unreachable', `HTTP ${status}`);
      }
      const { body, truncated } = await readCapped(response, options.maxBytes);
      return { url: target.href, body: body.toString('utf8'), truncated };
    }
  } catch (err) {
    throw failure(err);
  }
}
