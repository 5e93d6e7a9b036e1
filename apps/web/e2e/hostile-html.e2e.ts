import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConsoleMessage, Dialog, Request } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

// The smallest valid PNG (1×1), so a loaded image is a real image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The "remote" site a hostile message points at: a loopback host other than the app's, recording every request. */
interface Hit {
  method: string;
  path: string;
  referer: string | undefined;
}
const hits: Hit[] = [];
const remote = http.createServer((request, response) => {
  hits.push({ method: request.method!, path: request.url!, referer: request.headers.referer });
  if (request.url!.endsWith('.png') || request.url!.endsWith('.gif')) {
    response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  } else if (request.url!.endsWith('.css')) {
    response.writeHead(200, { 'content-type': 'text/css' }).end('body{background:url(/from-css.png)}');
  } else {
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        '<!doctype html><title>remote</title><link rel="icon" href="data:,"><script>console.log("remote page ran")</script>',
      );
  }
});
await new Promise<void>((resolve) => remote.listen(0, '127.0.0.2', resolve));
afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));
const R = `http://127.0.0.2:${(remote.address() as AddressInfo).port}`;

/** One of everything that has run code or fetched something in some mail client. */
const hostileHtml = `<!doctype html><html><head>
<meta http-equiv="refresh" content="0;url=${R}/meta-refresh">
<base href="${R}/base/">
<link rel="stylesheet" href="${R}/link.css">
<style>@import url("${R}/import.css"); body { background: url("${R}/style-bg.png"); } .note { color: #555 }</style>
<script>console.log('HOSTILE script'); alert('HOSTILE script'); parent.document.title = 'PWNED'; fetch('${R}/script-fetch');</script>
</head>
<body onload="alert('HOSTILE body onload')">
<p class="note" id="greeting">Hello <b>friend</b>, here is the report.</p>
<img src="${R}/photo.png" alt="remote photo">
<img src="${R}/pixel.gif" width="1" height="1" alt="">
<img src="does-not-exist" onerror="alert('HOSTILE onerror'); console.log('HOSTILE onerror')">
<img src="data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`).toString('base64')}">
<a id="js-link" href="javascript:alert('HOSTILE javascript link')">Click for a prize</a>
<a id="js-link-2" href="  JaVaScRiPt:console.log('HOSTILE spaced')">Another prize</a>
<a id="plain-link" href="${R}/page" target="_self">The report online</a>
<svg width="20" height="20" onload="alert('HOSTILE svg onload')"><script>alert('HOSTILE svg script')</script>
<image href="${R}/svg-image.png" width="20" height="20"/><a href="javascript:alert('HOSTILE svg link')"><text y="15">x</text></a></svg>
<div style="background-image: url('${R}/inline-bg.png'); width: 20px; height: 20px" onmouseover="alert('HOSTILE hover')">bg</div>
<form action="${R}/form" method="post"><input name="q" value="secret"><button id="send" formaction="${R}/formaction">Send</button></form>
<iframe src="${R}/iframe"></iframe>
<iframe srcdoc="<script>alert('HOSTILE srcdoc')</script>"></iframe>
<object data="${R}/object.swf"></object>
<embed src="${R}/embed.swf">
<video poster="${R}/poster.png" src="${R}/video.mp4"></video>
<audio src="${R}/audio.mp3" autoplay></audio>
<math><mtext><table><mglyph><style><img src=x onerror="alert('HOSTILE mxss')"></style></mglyph></table></mtext></math>
</body></html>`;

describe('a hostile HTML message', () => {
  it('runs nothing and loads nothing remote; links open in a new tab without an opener; show images loads only images', async () => {
    const { context, page } = await newPage(browser);
    const appOrigin = new URL(url).origin;
    const consoleLines: string[] = [];
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on('console', (message: ConsoleMessage) => {
      consoleLines.push(`${message.type()}: ${message.text()} @ ${message.location().url}`);
    });
    page.on('dialog', (dialog: Dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    // Every request of every frame and popup of the context.
    context.on('request', (request: Request) => requests.push(request.url()));

    const memberId = await signUp(page, url, 'Hal Host');
    await transport.sendMail({
      from: '"Mallory" <mallory@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'Your report is ready',
      text: 'Hello friend, here is the report.',
      html: hostileHtml,
    });
    const row = page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /Your report is ready/ });
    await row.waitFor({ timeout: 15_000 });
    const before = requests.length;
    const consoleBefore = consoleLines.length;
    await row.click();

    const reader = page.getByRole('region', { name: 'Message' });
    const frameElement = reader.locator('iframe[title="Your report is ready"]');
    await frameElement.waitFor();
    const body = page.frameLocator('iframe[title="Your report is ready"]');
    await body.locator('#greeting').waitFor();
    await expect(body.locator('#greeting').textContent()).resolves.toBe('Hello friend, here is the report.');
    await expect(frameElement.getAttribute('sandbox')).resolves.not.toContain('allow-scripts');
    await reader.getByRole('button', { name: 'Show images' }).waitFor();

    // The reader's own head has meta and base; the message's body has none of these.
    // Poke what a reader might touch: the prize links, the hover target, the form button.
    await body.locator('#js-link').click();
    await body.locator('#js-link-2').click();
    await body.getByText('bg', { exact: true }).hover();
    await expect(
      body
        .locator('body :is(form, input, button, iframe, object, embed, script, meta, link, base, style[src])')
        .count(),
    ).resolves.toBe(0);
    // Let anything timed (meta refresh, late loads) have its chance.
    await page.waitForTimeout(1500);
    await screenshot(page, 'hostile-html-desktop-en');

    expect(dialogs).toEqual([]);
    expect(consoleLines.slice(consoleBefore)).toEqual([]);
    expect(await page.title()).not.toContain('PWNED');
    expect(hits).toEqual([]);
    const foreign = requests.slice(before).filter((address) => {
      if (/^(data|about|blob):/.test(address)) return false;
      return new URL(address).origin !== appOrigin;
    });
    expect(foreign).toEqual([]);
    expect(page.url()).toMatch(/\/mail\/folder\//);

    // Every link left opens in a new tab, without an opener or a referrer; javascript: ones lost their href.
    // Read through locators, not evaluate(): a script of ours in the frame would be blocked and logged too.
    const anchors = body.locator('body a');
    const links: { id: string | null; href: string | null; target: string | null; rel: string | null }[] = [];
    for (let i = 0; i < (await anchors.count()); i++) {
      const anchor = anchors.nth(i);
      const [id, href, target, rel] = await Promise.all(
        ['id', 'href', 'target', 'rel'].map((name) => anchor.getAttribute(name)),
      );
      links.push({ id: id!, href: href!, target: target!, rel: rel! });
    }
    expect(links.length).toBeGreaterThanOrEqual(3);
    expect(links.filter((link) => link.href?.trim().toLowerCase().startsWith('javascript'))).toEqual([]);
    const plain = links.find((link) => link.id === 'plain-link')!;
    expect(plain).toMatchObject({ href: `${R}/page`, target: '_blank' });
    expect(plain.rel).toMatch(/\bnoopener\b/);
    for (const link of links.filter((l) => l.href)) expect(link.target).toBe('_blank');

    // Following the link: a new tab, no window.opener, no Referer, and the reader stays put.
    const [popup] = await Promise.all([context.waitForEvent('page'), body.locator('#plain-link').click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(`${R}/page`);
    await expect(popup.evaluate(() => window.opener)).resolves.toBeNull();
    expect(hits).toEqual([{ method: 'GET', path: '/page', referer: undefined }]);
    await popup.close();
    expect(page.url()).toMatch(/\/mail\/folder\//);
    hits.length = 0;

    // Show images: the browser asks the app's image proxy for the images (not the tracking pixel), never the
    // sender's site, and still nothing else — no stylesheet, no frame, no media, no script. This server's proxy
    // refuses loopback addresses like any private one, so the site sees nothing at all; image-proxy.e2e.ts has a
    // server that may fetch from it and checks what the site sees there.
    const consoleBeforeImages = consoleLines.length;
    const requestsBeforeImages = requests.length;
    const proxied = () =>
      requests
        .slice(requestsBeforeImages)
        .filter((address) => address.startsWith(`${appOrigin}/api/v1/image-proxy?`))
        .map((address) => new URL(address).searchParams.get('url'));
    await reader.getByRole('button', { name: 'Show images' }).click();
    await reader.getByRole('button', { name: 'Show images' }).waitFor({ state: 'detached' });
    await expect.poll(proxied).toContain(`${R}/photo.png`);
    await page.waitForTimeout(1000);
    // The mail's own <style> block and style attributes survive both sanitisers (their backgrounds are asked for).
    expect(new Set(proxied())).toEqual(
      new Set([`${R}/photo.png`, `${R}/style-bg.png`, `${R}/inline-bg.png`]),
    );
    const foreignAfter = requests.slice(requestsBeforeImages).filter((address) => {
      if (/^(data|about|blob):/.test(address)) return false;
      return new URL(address).origin !== appOrigin;
    });
    expect(foreignAfter).toEqual([]);
    expect(hits).toEqual([]);
    expect(dialogs).toEqual([]);
    // The refused images are the browser's only complaint (remote stylesheets are gone on the server).
    const refusedImage =
      /^error: Failed to load resource: the server responded with a status of 502 .* @ [^ ]+\/api\/v1\/image-proxy\?/;
    expect(consoleLines.slice(consoleBeforeImages).filter((line) => !refusedImage.test(line))).toEqual([]);
    await screenshot(page, 'hostile-html-images-desktop-en');
    await context.close();
  });
});
