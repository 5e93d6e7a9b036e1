import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { servedContentType } from '../content-types.js';
import { AddressPolicy } from '../../core/net/index.js';
import { isUntyped, readHead, SNIFF_BYTES, sniffImageType } from './sniff.js';

/** What the sender sees instead of the reader's browser. */
export const IMAGE_PROXY_USER_AGENT = 'Mailroom-Image-Proxy/1';

export type ImageFetchFailure = 'address' | 'redirects' | 'status' | 'type' | 'size' | 'network' | 'timeout';

export class ImageFetchError extends Error {
  constructor(
    readonly reason: ImageFetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ImageFetchError';
  }
}

export interface ImageFetchOptions {
  /** Non-public addresses or CIDR ranges it may fetch from anyway (tests, an internal image host). */
  allowPrivate: string[];
  /** Whole fetch, body included. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export interface FetchedImage {
  contentType: string;
  /** As the remote server declared it (at most maxBytes), if it did. */
  length: number | undefined;
  /** The body; fails (and the response is cut off) past maxBytes or the timeout. */
  body: Readable;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * Fetches remote images for the reader: GET only, no cookies, credentials or Referer, a fixed User-Agent,
 * no compression asked for (what arrives is what is counted), public addresses only unless allowed.
 */
export class ImageFetcher {
  private readonly agents: { 'http:': http.Agent; 'https:': https.Agent };
  private readonly policy: AddressPolicy;

  constructor(private readonly options: ImageFetchOptions) {
    this.policy = new AddressPolicy(options.allowPrivate);
    // The hook runs for every connection the agents open, so the address checked is the one connected to.
    const lookup = (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback) => {
      dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
        if (err) return callback(err, '');
        const usable = addresses.filter((a) => this.permitted(a.address));
        if (usable.length === 0)
          return callback(new ImageFetchError('address', `${hostname} is not a public address`), '');
        if (lookupOptions.all) return callback(null, usable);
        return callback(null, usable[0]!.address, usable[0]!.family);
      });
    };
    const agentOptions = { keepAlive: true, maxSockets: 8, lookup: lookup as unknown as net.LookupFunction };
    this.agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  }

  /** A public address, or one the settings allow. */
  permitted(address: string): boolean {
    return this.policy.permitted(address);
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  async fetch(url: string): Promise<FetchedImage> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new ImageFetchError('address', 'not a valid address');
    }
    for (let redirects = 0; ; redirects++) {
      const response = await this.get(target, signal);
      const status = response.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status) && response.headers.location) {
        response.resume();
        if (redirects >= this.options.maxRedirects)
          throw new ImageFetchError('redirects', `more than ${this.options.maxRedirects} redirects`);
        try {
          target = new URL(response.headers.location, target);
        } catch {
          throw new ImageFetchError('redirects', 'a redirect to an invalid address');
        }
        continue;
      }
      if (status !== 200) {
        response.resume();
        throw new ImageFetchError('status', `the image server answered ${status}`);
      }
      const declared = response.headers['content-length'];
      const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
      if (length !== undefined && length > this.options.maxBytes) {
        response.destroy();
        throw new ImageFetchError('size', `larger than ${this.options.maxBytes} bytes`);
      }
      // Passive raster types only: SVG can carry scripts and links, anything else is not an image.
      const declaredType = response.headers['content-type'] ?? '';
      let contentType = servedContentType(declaredType);
      let head: Buffer = Buffer.alloc(0);
      // Some image hosts label everything application/octet-stream (or nothing): the first bytes decide.
      if (isUntyped(declaredType)) {
        head = await readHead(response, SNIFF_BYTES).catch((err: unknown) => {
          throw this.failure(err, signal);
        });
        if (signal.aborted) throw this.failure(new Error('aborted'), signal);
        contentType = sniffImageType(head) ?? contentType;
      }
      if (!contentType.startsWith('image/')) {
        response.destroy();
        throw new ImageFetchError('type', `not an image (${declaredType || 'no type'})`);
      }
      return { contentType, length, body: this.capped(head, response, signal) };
    }
  }

  private get(target: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      return Promise.reject(new ImageFetchError('address', `${target.protocol} is not fetched`));
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // An address written as such never reaches the lookup hook.
    if (net.isIP(host) && !this.permitted(host))
      return Promise.reject(new ImageFetchError('address', `${host} is not a public address`));
    return new Promise((resolve, reject) => {
      // Built from parts, so user:password in the URL never becomes an Authorization header.
      const request = (target.protocol === 'https:' ? https : http).request(
        {
          protocol: target.protocol,
          hostname: host,
          port: target.port || undefined,
          path: `${target.pathname}${target.search}`,
          method: 'GET',
          agent: this.agents[target.protocol as 'http:' | 'https:'],
          headers: { 'user-agent': IMAGE_PROXY_USER_AGENT, accept: 'image/avif,image/webp,image/*;q=0.8' },
          signal,
        },
        resolve,
      );
      request.on('error', (err) => reject(this.failure(err, signal)));
      request.end();
    });
  }

  private failure(err: unknown, signal: AbortSignal): ImageFetchError {
    if (err instanceof ImageFetchError) return err;
    if (signal.aborted)
      return new ImageFetchError('timeout', `no answer within ${this.options.timeoutMs} ms`);
    return new ImageFetchError('network', `cannot reach the image server (${(err as Error).message})`);
  }

  /**
   * The body (after `head`, what was read of it already), counted as it streams: past maxBytes (or the
   * timeout) it fails and the upstream is dropped.
   */
  private capped(head: Buffer, response: http.IncomingMessage, signal: AbortSignal): Readable {
    const max = this.options.maxBytes;
    let seen = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        seen += chunk.length;
        if (seen > max) callback(new ImageFetchError('size', `larger than ${max} bytes`));
        else callback(null, chunk);
      },
    });
    if (head.length > 0) counter.write(head);
    pipeline(response, counter, { signal }).catch(() => {
      // pipeline has destroyed both streams; whoever reads `counter` sees the error.
    });
    return counter;
  }
}
