import { createHmac, timingSafeEqual } from 'node:crypto';
import { apiRoutes } from '@mailroom/protocol';

/**
 * Remote images of a message load through the server (after 'Show images'), so the sender sees the
 * server fetch them, not the reader: not their IP address, browser, cookies or the page they read it on.
 * The reader's HTML points at `/api/v1/image-proxy?url=…&sig=…`; the signature (HMAC-SHA256 with a key
 * derived from the server's secret) means only URLs our sanitiser wrote are fetched: the proxy is not an
 * open fetcher. The fetch refuses private, loopback, link-local and other non-public addresses, checked
 * on the address actually connected to (a DNS lookup hook, so a name cannot resolve to a public address
 * when checked and a private one when used), and every redirect target is checked the same way.
 */
export const IMAGE_PROXY_PATH = apiRoutes.imageProxy.path;
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
