import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { launchBrowser, newPage, sharedServer, signUp, smtpTransport } from './_harness.js';
import { repoRoot } from './_processes.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);
const dist = path.join(repoRoot, 'apps/web/dist');
/** DESIGN §5 and issue 32: the JavaScript a cold first paint of the mail shell loads, gzipped. */
const BUDGET_KB = 110;

describe('the cold first paint of the mail', () => {
  for (const locale of ['en-US', 'ru-RU']) {
    it(`loads at most ${BUDGET_KB} KB of JavaScript and asks the server nothing before its first row (${locale})`, async () => {
      const { context, page } = await newPage(browser, undefined, locale);
      const memberId = await signUp(page, url, `Cold ${locale}`);
      await transport.sendMail({
        from: '"Ola" <ola@example.org>',
        to: `${memberId}@mailroom.test`,
        subject: 'First row',
        text: 'Drawn from the page itself.',
      });
      await page
        .getByRole('grid', { name: /Messages|Письма/ })
        .getByRole('row', { name: /First row/ })
        .waitFor({
          timeout: 15_000,
        });
      // A new context with the same cookies: an empty cache, as a browser opening the mail for the first time.
      const cold = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        locale,
        storageState: await context.storageState(),
      });
      await context.close();
      const coldPage = await cold.newPage();
      const scripts: string[] = [];
      const asked: string[] = [];
      let drawn = false;
      coldPage.on('request', (request) => {
        if (drawn) return;
        const { pathname } = new URL(request.url());
        if (request.resourceType() === 'script') scripts.push(pathname);
        if (/^\/(api|auth)\//.test(pathname)) asked.push(pathname);
      });
      await coldPage.goto(`${url}/mail`);
      await coldPage.getByRole('row', { name: /First row/ }).waitFor({ timeout: 15_000 });
      drawn = true;

      expect(asked).toEqual([]);
      let bytes = 0;
      for (const script of new Set(scripts)) {
        expect(script).toMatch(/^\/assets\/[\w.-]+\.js$/);
        bytes += gzipSync(await fs.readFile(path.join(dist, script)), { level: 9 }).length;
      }
      expect(scripts.length).toBeGreaterThan(0);
      expect(bytes / 1024, scripts.join(', ')).toBeLessThanOrEqual(BUDGET_KB);
      await cold.close();
    });
  }
});
