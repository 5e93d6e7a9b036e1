import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, signUp, smtpTransport, startServer } from './_harness.js';

// A server of its own: its image proxy may fetch from the sender's "site" below (a loopback address), which the
// shared server's proxy refuses like any other private address (as image-proxy.e2e.ts does).
const { url, smtpPort } = await startServer({ IMAGE_PROXY_ALLOW_PRIVATE: '127.0.0.3' });
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/** A 1x1 PNG, stretched by its width and height attributes. */
function onePixelPng(): Buffer {
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
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.from([0, 22, 163, 74]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PIXEL = onePixelPng();

const hits: string[] = [];
const remote = http.createServer((request, response) => {
  hits.push(request.url!);
  response.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
});
await new Promise<void>((resolve) => remote.listen(0, '127.0.0.3', resolve));
afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));
const R = `http://127.0.0.3:${(remote.address() as AddressInfo).port}`;

describe('remote images from people I know', () => {
  it("'Add to contacts' shows the open message's images at once, without a reload", async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Kim Known');
    const changed = await page.request.post(`${url}/api/v1/user/settings`, {
      headers: { 'x-mailroom-csrf': '1', origin: url },
      data: { image_display: 'correspondent' },
    });
    expect(changed.ok()).toBe(true);
    await transport.sendMail({
      from: 'Mallory Wayne <mallory@wayne.example>',
      to: `${memberId}@mailroom.test`,
      subject: 'Photos from the trip',
      text: 'Photos',
      html: `<p id="hello">Photos</p><img src="${R}/trip.png" alt="Trip photo" width="160" height="80">`,
    });
    await page.goto(`${url}/mail`);
    await page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /Photos from the trip/ })
      .click({ timeout: 15_000 });
    const reader = page.getByRole('region', { name: 'Message' });
    const body = page.frameLocator('iframe[title="Photos from the trip"]');
    await body.locator('#hello').waitFor();
    // Not a contact yet: the images wait.
    await reader.getByRole('button', { name: 'Show images' }).waitFor();
    expect(hits).toEqual([]);

    await page.getByRole('button', { name: 'Add Mallory Wayne to contacts' }).click();
    await page.getByText('In contacts').waitFor();
    // Now one: the message is read again and its image loads, through the proxy, with no reload.
    const photo = body.getByRole('img', { name: 'Trip photo' });
    await expect
      .poll(() => photo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), {
        timeout: 15_000,
      })
      .toBe(1);
    await reader.getByRole('button', { name: 'Show images' }).waitFor({ state: 'detached' });
    expect(hits).toEqual(['/trip.png']);
    await screenshot(page, 'contacts-sender-images-desktop-en');
    await context.close();
  });
});
