import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Request } from 'playwright-core';
import { launchBrowser, newPage, screenshot, signUp, smtpTransport, startServer } from './_harness.js';

// A server of its own: its image proxy may fetch from the "remote" site below (a loopback address), which the
// shared server's proxy refuses like any other private address.
const { url, smtpPort } = await startServer({ IMAGE_PROXY_ALLOW_PRIVATE: '127.0.0.2' });
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/** A real PNG of one colour, big enough to see in the screenshot. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PHOTO = solidPng(160, 80, [37, 99, 235]);
const TILE = solidPng(8, 8, [250, 204, 21]);

/** The sender's site, recording every request: who asked, with what cookie, Referer and browser. */
interface Hit {
  path: string;
  referer: string | undefined;
  cookie: string | undefined;
  userAgent: string | undefined;
}
const hits: Hit[] = [];
const remote = http.createServer((request, response) => {
  hits.push({
    path: request.url!,
    referer: request.headers.referer,
    cookie: request.headers.cookie,
    userAgent: request.headers['user-agent'],
  });
  if (request.url === '/photo.png') response.writeHead(200, { 'content-type': 'image/png' }).end(PHOTO);
  else if (request.url!.endsWith('.png') || request.url!.endsWith('.gif'))
    response.writeHead(200, { 'content-type': 'image/png' }).end(TILE);
  else if (request.url!.endsWith('.css'))
    response.writeHead(200, { 'content-type': 'text/css' }).end('body{background:url(/from-css.png)}');
  else response.writeHead(404).end();
});
await new Promise<void>((resolve) => remote.listen(0, '127.0.0.2', resolve));
afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));
const R = `http://127.0.0.2:${(remote.address() as AddressInfo).port}`;

const newsletter = `<!doctype html><html><head>
<link rel="stylesheet" href="${R}/theme.css">
<style>@import url("${R}/import.css"); .banner { background: url("${R}/style-bg.png"); padding: 12px }</style>
</head><body>
<div class="banner"><h1 id="headline">Spring news</h1></div>
<p><img src="${R}/photo.png" alt="Team photo" width="160" height="80"></p>
<table background="${R}/table-bg.png"><tr><td>Table with a background</td></tr></table>
<div style="background-image: url('${R}/inline-bg.png'); padding: 8px">Inline background</div>
<img src="${R}/open.gif" width="1" height="1" alt="">
</body></html>`;

describe('remote images', () => {
  it("load after 'Show images' through the app's proxy: the sender sees the server, not the reader", async () => {
    const { context, page } = await newPage(browser);
    const appOrigin = new URL(url).origin;
    const consoleLines: string[] = [];
    const requests: string[] = [];
    page.on('console', (message: ConsoleMessage) =>
      consoleLines.push(`${message.type()}: ${message.text()} @ ${message.location().url}`),
    );
    context.on('request', (request: Request) => requests.push(request.url()));

    const memberId = await signUp(page, url, 'Ida Proxy');
    await transport.sendMail({
      from: '"News" <news@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'Spring news',
      text: 'Spring news',
      html: newsletter,
    });
    const row = page.getByRole('grid', { name: 'Messages' }).getByRole('row', { name: /Spring news/ });
    await row.waitFor({ timeout: 15_000 });
    await row.click();

    // Before: nothing at all from the sender's site, and the offer to show images.
    const reader = page.getByRole('region', { name: 'Message' });
    const body = page.frameLocator('iframe[title="Spring news"]');
    await body.locator('#headline').waitFor();
    await reader.getByRole('button', { name: 'Show images' }).waitFor();
    await page.waitForTimeout(500);
    expect(hits).toEqual([]);
    await screenshot(page, 'image-proxy-blocked-desktop-en');

    const before = requests.length;
    const consoleBefore = consoleLines.length;
    await reader.getByRole('button', { name: 'Show images' }).click();
    const photo = body.getByRole('img', { name: 'Team photo' });
    await expect
      .poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
      .toBe(160);
    await expect.poll(() => hits.length).toBeGreaterThanOrEqual(4);
    await page.waitForTimeout(1000);

    // Each image once, the tracking pixel and the stylesheets never; asked for by the proxy: no cookie, no Referer
    // (not even the app's origin, which Chromium sends for CSS images in a srcdoc frame), not the reader's browser.
    expect(hits.map((hit) => hit.path).sort()).toEqual([
      '/inline-bg.png',
      '/photo.png',
      '/style-bg.png',
      '/table-bg.png',
    ]);
    expect(hits.filter((hit) => hit.cookie !== undefined || hit.referer !== undefined)).toEqual([]);
    expect(new Set(hits.map((hit) => hit.userAgent))).toEqual(new Set(['Mailroom-Image-Proxy/1']));

    // The browser itself asked only the app: one image-proxy request per image.
    const after = requests.slice(before).filter((address) => /^https?:/.test(address));
    expect(after.filter((address) => new URL(address).origin !== appOrigin)).toEqual([]);
    const proxied = after.filter((address) => address.startsWith(`${appOrigin}/api/v1/image-proxy?`));
    expect(proxied.map((address) => new URL(address).searchParams.get('url')).sort()).toEqual(
      ['/inline-bg.png', '/photo.png', '/style-bg.png', '/table-bg.png'].map((path) => `${R}${path}`),
    );
    // Nothing refused or failed in the reader (the app's own favicon.ico 404 comes earlier).
    expect(consoleLines.slice(consoleBefore)).toEqual([]);
    await screenshot(page, 'image-proxy-shown-desktop-en');
    await context.close();
  });
});
