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
      // The moment the first row exists, on the page's own clock: what starts later (the idle prefetch of the
      // reader and the message actions) is not the first paint's.
      await cold.addInitScript(() => {
        const observer = new MutationObserver(() => {
          if (!document.querySelector('[role="grid"] [role="row"]')) return;
          (window as unknown as { drawnAt: number }).drawnAt = performance.now();
          observer.disconnect();
        });
        observer.observe(document, { childList: true, subtree: true });
      });
      const coldPage = await cold.newPage();
      await coldPage.goto(`${url}/mail`);
      await coldPage.getByRole('row', { name: /First row/ }).waitFor({ timeout: 15_000 });
      const { scripts, asked } = await coldPage.evaluate(() => {
        const drawnAt = (window as unknown as { drawnAt: number }).drawnAt;
        const before = performance
          .getEntriesByType('resource')
          .filter((entry) => entry.startTime <= drawnAt)
          .map((entry) => ({ path: new URL(entry.name).pathname }));
        return {
          scripts: before.filter((entry) => entry.path.endsWith('.js')).map((entry) => entry.path),
          asked: before.filter((entry) => /^\/(api|auth)\//.test(entry.path)).map((entry) => entry.path),
        };
      });

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
