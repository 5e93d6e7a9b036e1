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

/** dd.MM.yyyy of a UTC day (search dates are whole UTC days, SPEC §5), `offset` days from today. */
function day(offset: number): string {
  const date = new Date(Date.now() + offset * 86_400_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getUTCDate())}.${two(date.getUTCMonth() + 1)}.${date.getUTCFullYear()}`;
}

async function resultSubjects(page: Page): Promise<string[]> {
  const grid = page.getByRole('grid', { name: 'Messages' });
  // A search has its own empty state (not the empty folder's 'Nothing here').
  const empty = page.getByText('No messages found');
  await grid.or(empty).first().waitFor({ timeout: 15_000 });
  if (await empty.isVisible()) return [];
  // A row's name is 'sender, subject, date[, unread…]'; these subjects have no commas.
  const subjects = await grid
    .locator('[role="row"]')
    .evaluateAll((rows) => rows.map((row) => (row.getAttribute('aria-label') ?? '').split(', ')[1] ?? ''));
  return subjects.sort();
}

describe('search with the advanced form', () => {
  it('looks in the subject only, in the current folder or all folders, between dates; clear and Escape end it', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Sam Seek');
    const messages = [
      { subject: 'Garden invoice', text: 'The quarterly numbers are attached.' },
      { subject: 'Quarterly numbers', text: 'See the garden photos.' },
      { subject: 'Quarterly archive', text: 'Old figures.' },
    ];
    await deliverMany(transport, messages.length, (i) => ({
      from: '"Olga Berg" <olga@example.org>',
      to: `${memberId}@mailroom.test`,
      ...messages[i - 1]!,
    }));
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Quarterly archive/ }).waitFor({ timeout: 15_000 });
    const inboxUrl = page.url();

    // Put one message away in another folder, so the scope matters.
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByLabel('Folder name').fill('Archive');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('success-dialog').getByRole('button', { name: 'Close' }).click();
    await grid
      .getByRole('row', { name: /Quarterly archive/ })
      .getByRole('checkbox')
      .check();
    await page.getByRole('button', { name: 'Move to folder' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);

    const search = page.getByRole('searchbox', { name: 'Search mail' });
    const advanced = page.getByRole('group', { name: 'Advanced search' });
    const toggle = page.getByRole('button', { name: 'Advanced search' });
    const field = (name: string) => advanced.getByRole('checkbox', { name });
    const dateFrom = advanced.getByRole('textbox', { name: 'Date from' });
    const dateTo = advanced.getByRole('textbox', { name: 'Date to' });

    // Defaults: the current folder, every field (subject, body and sender).
    await search.fill('quarterly');
    await toggle.click();
    await expect(advanced.getByRole('radio', { name: 'Current folder' }).isChecked()).resolves.toBe(true);
    for (const name of ['Subject', 'Body', 'Sender'])
      await expect(field(name).isChecked()).resolves.toBe(true);
    await expect(dateFrom.isEnabled()).resolves.toBe(true);
    await advanced.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(
      /\/mail\/search\/all\/\d+\/false\/1\/quarterly\/false\/true\/true\/true\/false\/false$/,
    );
    await expect.poll(() => resultSubjects(page)).toEqual(['Garden invoice', 'Quarterly numbers']);

    // Subject only: the body mentioning 'quarterly' no longer counts. At least one field stays on.
    await toggle.click();
    await field('Sender').uncheck();
    await field('Body').uncheck();
    await expect(field('Subject').isChecked()).resolves.toBe(true);
    // Unticking the last field is refused.
    await field('Subject').click();
    await expect(field('Subject').isChecked()).resolves.toBe(true);
    await screenshot(page, 'search-advanced-desktop-en');
    await advanced.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/quarterly\/false\/true\/false\/false\/false\/false$/);
    await expect.poll(() => resultSubjects(page)).toEqual(['Quarterly numbers']);

    // All folders: the message in Archive is found too, and the dates are switched off.
    await toggle.click();
    await advanced.getByRole('radio', { name: 'All folders' }).check();
    await expect(dateFrom.isDisabled()).resolves.toBe(true);
    await expect(dateTo.isDisabled()).resolves.toBe(true);
    await advanced.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(
      /\/mail\/search\/all\/\d+\/false\/1\/quarterly\/true\/true\/false\/false\/false\/false$/,
    );
    await expect.poll(() => resultSubjects(page)).toEqual(['Quarterly archive', 'Quarterly numbers']);
    // Empty text over all folders does nothing.
    await search.fill('');
    await search.press('Enter');
    await new Promise((r) => setTimeout(r, 300));
    expect(page.url()).toMatch(/\/quarterly\/true\//);

    // Back to the current folder with dates: today finds the mail, yesterday does not, a bad date stops.
    await search.fill('quarterly');
    await toggle.click();
    await advanced.getByRole('radio', { name: 'Current folder' }).check();
    await dateFrom.fill(day(0));
    await dateTo.fill(day(0));
    await advanced.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(new RegExp(`/${day(0).replace(/\./g, '\\.')}/${day(0).replace(/\./g, '\\.')}$`));
    await expect.poll(() => resultSubjects(page)).toEqual(['Quarterly numbers']);
    await toggle.click();
    await dateFrom.fill(day(-2));
    await dateTo.fill(day(-1));
    await advanced.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => resultSubjects(page)).toEqual([]);
    await screenshot(page, 'search-no-result-desktop-en');
    await toggle.click();
    await dateTo.fill('31.02.2026');
    await advanced.getByRole('alert').getByText('Enter dates as dd.mm.yyyy').waitFor();
    const before = page.url();
    await advanced.getByRole('button', { name: 'Search' }).click();
    await new Promise((r) => setTimeout(r, 300));
    expect(page.url()).toBe(before);
    await toggle.click();

    // The clear button ends search mode: back to the Inbox, the line empty.
    await page.getByRole('button', { name: 'Clear search' }).click();
    await page.waitForURL(inboxUrl);
    await expect(search.inputValue()).resolves.toBe('');
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);

    // Escape closes search too, with focus anywhere outside a dialog or menu — here on an opened result.
    await search.fill('photos');
    await search.press('Enter');
    await expect.poll(() => resultSubjects(page)).toEqual(['Quarterly numbers']);
    await grid.getByRole('row', { name: /Quarterly numbers/ }).click();
    await page
      .getByRole('region', { name: 'Message' })
      .getByRole('heading', { name: 'Quarterly numbers' })
      .waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(inboxUrl);
    await expect(search.inputValue()).resolves.toBe('');
    await context.close();
  });

  it('looks for the text in each ticked field and only those, in the request and the results', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Basil Seek');
    const mail = [
      { from: '"Sybil Fawlty" <sybil@fawlty.example>', subject: 'Towels', text: 'Fresh towels, please.' },
      { from: '"Sybil Fawlty" <sybil@fawlty.example>', subject: 'Room twelve', text: 'It is ready.' },
      { from: '"Sybil Fawlty" <sybil@fawlty.example>', subject: 'Kippers', text: 'For the breakfast.' },
      { from: '"Polly" <polly@fawlty.example>', subject: 'Sybil is out', text: 'Back by noon.' },
      { from: '"Manuel" <manuel@fawlty.example>', subject: 'Que', text: 'Ask Sybil about the rat.' },
    ];
    await deliverMany(transport, mail.length, (i) => ({ to: `${memberId}@mailroom.test`, ...mail[i - 1]! }));
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Que/ }).waitFor({ timeout: 15_000 });

    const requests: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/messages/search')) requests.push(request.postDataJSON());
    });
    const search = page.getByRole('searchbox', { name: 'Search mail' });
    const advanced = page.getByRole('group', { name: 'Advanced search' });
    const toggle = page.getByRole('button', { name: 'Advanced search' });
    const field = (name: string) => advanced.getByRole('checkbox', { name });

    // Subject + Sender: every message from Sybil and the one about her, not the body that names her.
    await search.fill('sybil');
    await toggle.click();
    await field('Body').uncheck();
    await advanced.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/sybil\/false\/true\/false\/true\/false\/false$/);
    await expect
      .poll(() => resultSubjects(page))
      .toEqual(['Kippers', 'Room twelve', 'Sybil is out', 'Towels']);
    expect(requests.at(-1)).toMatchObject({ text: 'sybil', fields: ['subject', 'from'] });

    // Body only: the body that names her, nothing of the subject or the sender.
    await toggle.click();
    await field('Body').check();
    await field('Subject').uncheck();
    await field('Sender').uncheck();
    await advanced.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/sybil\/false\/false\/true\/false\/false\/false$/);
    await expect.poll(() => resultSubjects(page)).toEqual(['Que']);
    expect(requests.at(-1)).toMatchObject({ text: 'sybil', fields: ['body'] });

    // Sender only, opened again from its address: the three from Sybil.
    await page.reload();
    await expect.poll(() => resultSubjects(page)).toEqual(['Que']);
    await toggle.click();
    await field('Sender').check();
    await field('Body').uncheck();
    await advanced.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => resultSubjects(page)).toEqual(['Kippers', 'Room twelve', 'Towels']);
    expect(requests.at(-1)).toMatchObject({ text: 'sybil', fields: ['from'] });
    await context.close();
  });
});
