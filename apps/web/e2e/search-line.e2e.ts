import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  deliverMany,
  launchBrowser,
  newPage,
  screenshot,
  sharedServer,
  signUp,
  smtpTransport,
} from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/** The element that has the focus, by its accessible label. */
function focusedLabel(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
}

describe('the search line', () => {
  it('at 390×844 the search is an icon that opens the line over the top bar, in English and Russian', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    const memberId = await signUp(page, url, 'Pia Phone');
    await deliverMany(transport, 6, (i) => ({
      from: '"Billing" <billing@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: i % 2 ? `Invoice ${i}` : `Weekly notes ${i}`,
      text: `Message number ${i}.`,
    }));
    const grid = page.getByRole('grid', { name: 'Messages' });
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 15_000 }).toBe(6);

    // Folded: an icon beside the title, which keeps its room.
    const toolbar = page.getByRole('toolbar', { name: 'Message actions' });
    const toggle = toolbar.getByRole('button', { name: 'Search mail' });
    await toggle.waitFor();
    expect(await page.getByRole('searchbox').count()).toBe(0);
    expect(await toolbar.getByRole('heading', { name: 'Inbox' }).isVisible()).toBe(true);
    await screenshot(page, 'search-mobile-en-folded');

    // Open: the line covers the bar, the input has the focus; Escape folds it and the icon has the focus again.
    await toggle.click();
    const input = page.getByRole('searchbox', { name: 'Search mail' });
    await input.waitFor();
    expect(await focusedLabel(page)).toBe('Search mail');
    const bar = (await toolbar.boundingBox())!;
    const line = (await page.getByRole('search', { name: 'Mail search' }).boundingBox())!;
    expect(line.width).toBeGreaterThan(bar.width - 2);
    expect((await input.boundingBox())!.width).toBeGreaterThan(200);
    await screenshot(page, 'search-mobile-en-open');
    await page.keyboard.press('Escape');
    await toggle.waitFor();
    expect(await page.getByRole('searchbox').count()).toBe(0);
    expect(await focusedLabel(page)).toBe('Search mail');

    // The advanced form opens from the line and fits the screen.
    await toggle.click();
    await page.getByRole('button', { name: 'Advanced search' }).click();
    const dateFrom = page.getByRole('textbox', { name: 'Date from' });
    await dateFrom.waitFor();
    const form = (await page.getByRole('group', { name: 'Advanced search' }).boundingBox())!;
    expect(form.x).toBeGreaterThanOrEqual(0);
    expect(form.x + form.width).toBeLessThanOrEqual(390);
    await screenshot(page, 'search-mobile-en-advanced');
    await page.keyboard.press('Escape');

    // A search runs from the line; the results get the whole bar back.
    await input.fill('Invoice');
    await input.press('Enter');
    await page.waitForURL(/\/mail\/search\//);
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    await toggle.waitFor();
    await expect.poll(() => focusedLabel(page)).toBe('Search mail');
    await screenshot(page, 'search-mobile-en-results');

    // The same in Russian.
    await page.goto(`${url}/mail?lang=ru`);
    const ruToggle = page.getByRole('button', { name: 'Поиск по почте' });
    await ruToggle.waitFor();
    await expect.poll(() => page.getByRole('grid', { name: 'Письма' }).getByRole('row').count()).toBe(6);
    await screenshot(page, 'search-mobile-ru-folded');
    await ruToggle.click();
    await page.getByRole('searchbox', { name: 'Поиск по почте' }).waitFor();
    await page.getByRole('button', { name: 'Закрыть строку поиска' }).waitFor();
    await screenshot(page, 'search-mobile-ru-open');
    await page.getByRole('button', { name: 'Закрыть строку поиска' }).click();
    await ruToggle.waitFor();
    expect(await focusedLabel(page)).toBe('Поиск по почте');
    await context.close();
  });
  it('on desktop the search results keep the sidebar as it is: New message stays a live button', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Dee Desk');
    await deliverMany(transport, 3, (i) => ({
      from: '"Billing" <billing@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: `Receipt ${i}`,
      text: `Receipt number ${i}.`,
    }));
    const grid = page.getByRole('grid', { name: 'Messages' });
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 15_000 }).toBe(3);
    const search = page.getByRole('searchbox', { name: 'Search mail' });
    await search.fill('Receipt');
    await search.press('Enter');
    await page.waitForURL(/\/mail\/search\//);
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBe(3);
    await screenshot(page, 'search-results-desktop-en');

    // Not disabled, not dimmed, not covered: the accent colour at full opacity, and it is what a click hits.
    const compose = page.getByRole('button', { name: 'New message' });
    expect(await compose.isEnabled()).toBe(true);
    const look = await compose.evaluate((button) => {
      let opacity = 1;
      for (let element: Element | null = button; element; element = element.parentElement) {
        opacity *= Number(getComputedStyle(element).opacity);
      }
      const box = button.getBoundingClientRect();
      const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      const accent = getComputedStyle(document.documentElement).getPropertyValue('--color-accent').trim();
      const probe = document.createElement('span');
      probe.style.color = accent;
      document.body.append(probe);
      const accentRgb = getComputedStyle(probe).color;
      probe.remove();
      return {
        opacity,
        background: getComputedStyle(button).backgroundColor,
        accentRgb,
        hitsButton: hit !== null && button.contains(hit),
      };
    });
    expect(look.opacity).toBe(1);
    expect(look.background).toBe(look.accentRgb);
    expect(look.hitsButton).toBe(true);
    await compose.click();
    await page.getByRole('dialog', { name: /New message/ }).waitFor();
    await context.close();
  });
});

describe('the phone top bar', () => {
  it('at 360 px a selection has the whole bar: search and refresh make room, the dots menu stays on screen', async () => {
    const { context, page } = await newPage(browser, { width: 360, height: 740 });
    const memberId = await signUp(page, url, 'Cro Wd');
    await deliverMany(transport, 3, (i) => ({
      from: '"Ann" <ann@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: `Note ${i}`,
      text: `Note ${i}.`,
    }));
    const grid = page.getByRole('grid', { name: 'Messages' });
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 15_000 }).toBe(3);
    const toolbar = page.getByRole('toolbar', { name: 'Message actions' });
    const fits = () => toolbar.evaluate((bar) => bar.scrollWidth <= bar.clientWidth);
    expect(await fits()).toBe(true);

    await grid.getByRole('row').first().getByRole('checkbox').check();
    await toolbar.getByRole('button', { name: 'Delete' }).waitFor();
    expect(await toolbar.getByRole('button', { name: 'Search mail' }).count()).toBe(0);
    expect(await fits()).toBe(true);
    const dots = (await toolbar.getByRole('button', { name: 'More' }).boundingBox())!;
    expect(dots.x + dots.width).toBeLessThanOrEqual(360);
    await screenshot(page, 'selection-mobile-360-en');

    // The selection cleared, search is back.
    await grid.getByRole('row').first().getByRole('checkbox').uncheck();
    await toolbar.getByRole('button', { name: 'Search mail' }).waitFor();
    await context.close();
  });
});
