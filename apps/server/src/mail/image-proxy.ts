import { createHmac, timingSafeEqual } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody } from '@mailroom/protocol';
import { DomainError } from '../core/errors.js';
import { servedContentType } from './attachments.js';

/**
 * Remote images of a message load through the server (after 'Show images'), so the sender sees the
 * server fetch them, not the reader: not their IP address, browser, cookies or the page they read it on.
 * The reader's HTML points at `/api/v1/image-proxy?url=…&sig=…`; the signature (HMAC-SHA256 with a key
 * derived from the server's secret) means only URLs our sanitiser wrote are fetched: the proxy is not an
 * open fetcher. The fetch refuses private, loopback, link-local and other non-public addresses, checked
 * on the address actually connected to (a DNS lookup hook, so a name cannot resolve to a public address
 * when checked and a private one when used), and every redirect target is checked the same way.
 */
export const IMAGE_PROXY_PATH = '/api/v1/image-proxy';
/** What the sender sees instead of the reader's browser. */
export const IMAGE_PROXY_USER_AGENT = 'Mailroom-Image-Proxy/1';

export class ImageUrlSigner {
  private readonly key: Buffer;
  constructor(serverSecret: string) {
    // Its own key: a signed image URL says nothing about the cookie signatures made with the secret.
    this.key = createHmac('sha256', serverSecret).update('mailroom image proxy v1').digest();
  }

  signature(url: string): string {
    return createHmac('sha256', this.key).update(url).digest('base64url');
  }

  /** The same-origin address a remote image of a message is loaded from. */
  proxyUrl(url: string): string {
    return `${IMAGE_PROXY_PATH}?url=${encodeURIComponent(url)}&sig=${this.signature(url)}`;
  }

  verify(url: string, signature: string): boolean {
    const expected = Buffer.from(this.signature(url));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

const proxiedUrl = /\/api\/v1\/image-proxy\?url=([A-Za-z0-9\-_.!~*'()%]+)(&amp;|&)sig=[A-Za-z0-9_-]+/g;

/**
 * Outgoing HTML with the original remote URLs in place of proxy URLs: a reply quoting a message read with
 * images shown, or a draft reopened with them, must not send recipients addresses on our server. The URL
 * is put back percent-encoded where it could end the attribute, CSS string or style block it sits in.
 */
export function restoreProxiedImageUrls(html: string): string {
  return html.replace(proxiedUrl, (match, encoded: string, separator: string) => {
    let url: string;
    try {
      url = decodeURIComponent(encoded);
    } catch {
      return match;
    }
    if (!/^https?:\/\//i.test(url)) return match;
    const safe = url.replace(
      /["'<>`\\\s()]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
    );
    // `&amp;` between the parameters: the URL sits in an attribute, where & is written as &amp;.
    return separator === '&amp;' ? safe.replace(/&/g, '&amp;') : safe;
  });
}

/**
 * Ranges that are not the public internet (RFC 6890 special-purpose registries, multicast, reserved).
 * BlockList checks IPv4-mapped IPv6 addresses (::ffff:127.0.0.1, ::ffff:7f00:1) against the IPv4 rules.
 */
const nonPublic = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96], // NAT64 can reach any IPv4 address, private ones too
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4 embeds an IPv4 address
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

/** Whether an IP address is on the public internet (not loopback, private, link-local, multicast…). */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return !nonPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  return !nonPublic.check(address, 'ipv6');
}

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
  private readonly allowed = new net.BlockList();

  constructor(private readonly options: ImageFetchOptions) {
    for (const range of options.allowPrivate) {
      const [address = '', prefix] = range.split('/');
      const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.allowed.addAddress(address, family);
      else this.allowed.addSubnet(address, Number(prefix), family);
    }
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
    if (isPublicAddress(address)) return true;
    const family = net.isIP(address);
    return family !== 0 && this.allowed.check(address, family === 6 ? 'ipv6' : 'ipv4');
  }

  close(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }

  async fetch(url: string): Promise<FetchedImage> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let target = new URL(url);
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

/** Types that say nothing about what the bytes are. */
function isUntyped(declared: string): boolean {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  return type === '' || type === 'application/octet-stream' || type === 'binary/octet-stream';
}

const SNIFF_BYTES = 16;

/**
 * The raster image type the first bytes of a file announce (PNG, JPEG, GIF, WebP, AVIF), or undefined:
 * only what the bytes prove is served as an image, never what a name or a guess suggests.
 */
export function sniffImageType(head: Buffer): string | undefined {
  const ascii = (from: number, to: number) => head.subarray(from, to).toString('latin1');
  if (head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return undefined;
}

/** Reads at least `bytes` from the start of a stream (fewer if it ends first); the caller sends them on. */
async function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let have = 0;
  while (have < bytes && !stream.readableEnded && !stream.destroyed) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      chunks.push(chunk);
      have += chunk.length;
      continue;
    }
    await new Promise<void>((resolve, reject) => {
      const settle = (err?: Error) => {
        stream
          .off('readable', onReadable)
          .off('end', onReadable)
          .off('close', onReadable)
          .off('error', settle);
        if (err) reject(err);
        else resolve();
      };
      const onReadable = () => settle();
      stream
        .once('readable', onReadable)
        .once('end', onReadable)
        .once('close', onReadable)
        .once('error', settle);
    });
  }
  return Buffer.concat(chunks);
}

export const imageProxyRoutes: FastifyPluginAsyncZod<{
  signer: ImageUrlSigner;
  fetcher: ImageFetcher;
  /** Images per minute per account. */
  rateLimit: number;
}> = async (app, { signer, fetcher, rateLimit }) => {
  app.addHook('onClose', async () => fetcher.close());
  app.get(
    '/image-proxy',
    {
      // The query names the remote image a reader looked at: the request log keeps only the path.
      logSerializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: IMAGE_PROXY_PATH,
          host: request.host,
          remoteAddress: request.ip,
        }),
      },
      config: {
        // Per account, not per IP: a signed-in user could otherwise make the server fetch without end.
        rateLimit: {
          max: rateLimit,
          timeWindow: '1 minute',
          keyGenerator: (request) =>
            request.principal ? `image-proxy:${request.principal.accountId}` : request.ip,
        },
      },
      schema: {
        tags: ['messages'],
        summary: 'A remote image of a message, fetched by the server',
        description:
          'The reader loads remote images (after show_images=true) through this address, so the sender ' +
          'never sees the reader. Only URLs the server signed (`sig`) are fetched, from public addresses, ' +
          'following at most 3 redirects; raster image types only (no SVG), size-capped, served with ' +
          'nosniff and a sandbox CSP. 403 forbidden for a wrong signature, 502 image_unavailable when the ' +
          'image cannot be fetched or is not one, 429 too_many_requests past IMAGE_PROXY_RATE_LIMIT a minute.',
        querystring: z.object({ url: z.string().min(1).max(8192), sig: z.string().min(1).max(100) }),
      },
    },
    async (request, reply) => {
      const { url, sig } = request.query;
      if (!signer.verify(url, sig)) throw new DomainError('forbidden');
      let image: FetchedImage;
      try {
        image = await fetcher.fetch(url);
      } catch (err) {
        if (!(err instanceof ImageFetchError)) throw err;
        // A broken remote image is the sender's problem, not an error of ours: logged as information.
        request.log.info({ reason: err.reason, detail: err.message }, 'remote image not served');
        return reply
          .status(502)
          .header('cache-control', 'no-store')
          .send(errorBody('image_unavailable', `The image could not be loaded: ${err.message}`));
      }
      image.body.on('error', (err) => request.log.info({ detail: err.message }, 'remote image cut off'));
      reply
        .header('content-type', image.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('content-disposition', 'inline')
        .header('cache-control', 'private, max-age=3600');
      if (image.length !== undefined) reply.header('content-length', image.length);
      return reply.send(image.body);
    },
  );
};
