import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deliverMany, launchBrowser, newPage, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/** Search text with every character a path segment must carry encoded and give back as typed (SPEC §2). */
const ODD_TEXT = 'a/b 50% +1 ann@example.test привет';

/** The reader's heading (the subject), or '' while no message is open. */
async function readerSubject(page: Page): Promise<string> {
  const heading = page.getByRole('region', { name: 'Message' }).getByRole('heading', { level: 1 });
  return (await heading.count()) > 0 ? ((await heading.first().textContent()) ?? '') : '';
}

async function openRow(page: Page, subject: string) {
  await page
    .getByRole('grid', { name: 'Messages' })
    .getByRole('row', { name: new RegExp(subject) })
    .click();
  await expect.poll(() => readerSubject(page), { timeout: 10_000 }).toBe(subject);
}

/** The search line's text. */
function searchText(page: Page): Promise<string> {
  return page.getByRole('searchbox', { name: 'Search mail' }).inputValue({ timeout: 10_000 });
}

describe('addresses of the mail shell', () => {
  it('deep links, back/forward and reload keep the view; odd search text round-trips through the address', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Rui Route');
    const start = Date.now() - 3600_000;
    await deliverMany(transport, 3, (i) => ({
      from: '"Route Robot" <robot@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: i === 3 ? 'Odd one' : `Plain ${i}`,
      text: i === 3 ? `Look for ${ODD_TEXT} here.` : `Message number ${i}.`,
      date: new Date(start + i * 60_000),
    }));
    await page.reload();
    const grid = page.getByRole('grid', { name: 'Messages' });
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 15_000 }).toBe(3);
    const inbox = page.url();
    expect(inbox).toMatch(/\/mail\/folder\/all\/\d+\/1$/);

    // Two messages opened one after the other; back and forward step through them and the list.
    await openRow(page, 'Plain 1');
    const first = page.url();
    expect(first).toMatch(/\/mail\/folder\/all\/\d+\/1\/\d+$/);
    await openRow(page, 'Plain 2');
    const second = page.url();
    await page.goBack();
    await expect.poll(() => readerSubject(page)).toBe('Plain 1');
    expect(page.url()).toBe(first);
    await page.goBack();
    await expect.poll(() => readerSubject(page)).toBe('');
    expect(page.url()).toBe(inbox);
    await page.getByText('No message selected').waitFor();
    await page.goForward();
    await expect.poll(() => readerSubject(page)).toBe('Plain 1');
    await page.goForward();
    await expect.poll(() => readerSubject(page)).toBe('Plain 2');
    expect(page.url()).toBe(second);

    // Reload keeps the open message; a deep link in a fresh tab opens it too.
    await page.reload();
    await expect.poll(() => readerSubject(page), { timeout: 15_000 }).toBe('Plain 2');
    const tab = await context.newPage();
    await tab.goto(first);
    await expect.poll(() => readerSubject(tab), { timeout: 15_000 }).toBe('Plain 1');
    expect(await tab.getByRole('treeitem', { name: /^Inbox/ }).getAttribute('aria-current')).toBe('page');
    await tab.close();

    // A search with odd characters: the address carries the text encoded, the line gives it back as typed.
    const input = page.getByRole('searchbox', { name: 'Search mail' });
    await input.fill(ODD_TEXT);
    await input.press('Enter');
    await page.waitForURL(/\/mail\/search\//);
    const segments = new URL(page.url()).pathname.split('/');
    expect(segments[7]).toBe(encodeURIComponent(ODD_TEXT));
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBe(1);
    expect(await searchText(page)).toBe(ODD_TEXT);
    const results = page.url();

    await openRow(page, 'Odd one');
    expect(page.url()).toMatch(/\/\d+-\d+$/);
    await page.reload();
    await expect.poll(() => readerSubject(page), { timeout: 15_000 }).toBe('Odd one');
    expect(await searchText(page)).toBe(ODD_TEXT);
    await page.goBack();
    await expect.poll(() => readerSubject(page)).toBe('');
    expect(page.url()).toBe(results);
    expect(await grid.getByRole('row').count()).toBe(1);
    expect(await searchText(page)).toBe(ODD_TEXT);

    // Back past the search returns to the message it was started from, with the search line empty.
    await page.goBack();
    await expect.poll(() => page.url()).toBe(second);
    await expect.poll(() => readerSubject(page)).toBe('Plain 2');
    expect(await searchText(page)).toBe('');
    await context.close();
  });

  it('/ lands on the Inbox; settings and its sections are addresses of their own', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Sol Settings');
    await page.goto(`${url}/`);
    await page.waitForURL(/\/mail\/folder\/all\/\d+\/1$/);
    await page.goto(`${url}/settings`);
    await page.waitForURL(/\/settings\/main$/);
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    expect(await nav.getByRole('link', { name: 'General' }).getAttribute('aria-current')).toBe('page');
    await nav.getByRole('link', { name: 'Folders' }).click();
    await page.waitForURL(/\/settings\/folders$/);
    expect(await nav.getByRole('link', { name: 'Folders' }).getAttribute('aria-current')).toBe('page');
    await page.goBack();
    await page.waitForURL(/\/settings\/main$/);
    expect(await nav.getByRole('link', { name: 'General' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('link', { name: 'Back to mail' }).click();
    await page.waitForURL(/\/mail\/folder\/all\/\d+\/1$/);
    await page.goto(`${url}/no/such/page`);
    await page.waitForURL(/\/mail\/folder\/all\/\d+\/1$/);
    await context.close();
  });
});
