import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshot, startServer } from './_harness.js';

/**
 * A host page on another site embeds the app (SPEC §1, FRAME_ANCESTORS). The host is served from 127.0.0.2, the
 * app from localhost: another site for Chromium (an IP address and a host name never share a site), and both are
 * potentially trustworthy origins, so Secure cookies work over plain http on them.
 */
const host = http.createServer();
await new Promise<void>((resolve) => host.listen(0, '127.0.0.2', resolve));
afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));
const hostOrigin = `http://127.0.0.2:${(host.address() as AddressInfo).port}`;

const { url } = await startServer({ FRAME_ANCESTORS: hostOrigin, AUTH_RATE_LIMIT: '10000' });
host.on('request', (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html><title>Host page</title>
<p id="status">waiting</p>
<iframe id="mail" src="${url}/mail" style="width:1200px;height:760px;border:1px solid #999"></iframe>
<script>
  window.messages = [];
  window.addEventListener('message', (event) => {
    window.messages.push({ origin: event.origin, data: event.data });
    document.getElementById('status').textContent = 'message: ' + event.data;
  });
</script>`);
});

const browser = await launchBrowser();

describe('sign-in inside a cross-site frame', () => {
  it('a newcomer signs up and in inside the frame, and the app posts finish to the host page', async () => {
    const { context, page } = await newPage(browser, { width: 1280, height: 900 });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(hostOrigin);
    const frame = page.frameLocator('#mail');
    await frame
      .getByRole('link', { name: /^Sign in$/ })
      .first()
      .click();
    await frame.getByRole('link', { name: 'Create one' }).click();
    await frame.getByLabel('Name').fill('Fran Framed');
    await frame.getByLabel('Password').fill('correct horse');
    await frame.getByRole('button', { name: 'Sign up' }).click();
    const memberId = (await frame.getByTestId('new-member-id').textContent())!.trim();
    await frame.getByRole('link', { name: 'Continue' }).click();

    await frame
      .getByRole('tree', { name: 'Folders' })
      .getByRole('treeitem', { name: /^Inbox/ })
      .waitFor();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { messages: unknown[] }).messages), {
        timeout: 15_000,
      })
      .toContainEqual({ origin: new URL(url).origin, data: 'finish' });
    await expect(frame.getByText(memberId).count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'framed-mail-desktop-en');
    // Chromium denies a cross-site frame its localStorage here: the app must not fall over reading it.
    expect(errors).toEqual([]);

    // Every cookie the flow left is a third-party one that survives in the frame.
    const cookies = await context.cookies(url);
    expect(cookies.map((c) => c.name)).toEqual(expect.arrayContaining(['mr_sid', '_session']));
    for (const cookie of cookies.filter((c) => ['mr_sid', 'isLogged', '_session'].includes(c.name))) {
      expect(cookie.sameSite, cookie.name).toBe('None');
      expect(cookie.secure, cookie.name).toBe(true);
    }

    // The language cookie is written by the app itself in the frame: it must be a third-party one too.
    await frame.getByRole('button', { name: 'Русский' }).click();
    await frame.getByRole('treeitem', { name: /^Входящие/ }).waitFor();
    await page.reload();
    await frame.getByRole('treeitem', { name: /^Входящие/ }).waitFor({ timeout: 15_000 });

    // Log out in the frame ends the provider session too: Sign in asks for the password again.
    await frame.getByRole('button', { name: 'Меню аккаунта' }).click();
    await frame.getByRole('menuitem', { name: 'Выйти' }).click();
    await frame.getByTestId('sign-in').click();
    await frame.locator('input[name="password"]').waitFor();
    await expect(frame.getByRole('heading', { name: 'Вход' }).count()).resolves.toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
