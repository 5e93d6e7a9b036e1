import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deliverMany, launchBrowser, newPage, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

const subjectOf = (i: number) => `Paging ${String(i).padStart(2, '0')}`;

/** The open row's subject, read from the list (aria-current) and the reader's heading, which must agree. */
async function openSubject(page: Page): Promise<string> {
  const row = page.getByRole('grid', { name: 'Messages' }).locator('[role="row"][aria-current="true"]');
  const heading = page.getByRole('region', { name: 'Message' }).getByRole('heading', { level: 1 });
  const [label, title] = await Promise.all([
    row.getAttribute('aria-label', { timeout: 10_000 }),
    heading.textContent({ timeout: 10_000 }),
  ]);
  return label?.includes(title ?? '\0') ? title! : `row "${label}" vs reader "${title}"`;
}

async function press(page: Page, key: 'ArrowDown' | 'ArrowUp', expected: string) {
  await page.keyboard.press(key);
  await expect.poll(() => openSubject(page), { timeout: 10_000 }).toBe(expected);
}

describe('moving between messages with the keyboard', () => {
  it('down opens the first message, walks to the end of page 1 and on to page 2; up comes back across the boundary', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Kim Park');
    // 35 messages a minute apart: the newest (35) heads page 1, page 2 holds 5..1.
    const start = Date.now() - 3 * 3600_000;
    await deliverMany(transport, 35, (i) => ({
      from: '"Paging Robot" <robot@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: subjectOf(i),
      text: `Message number ${i}.`,
      date: new Date(start + i * 60_000),
    }));
    const grid = page.getByRole('grid', { name: 'Messages' });
    await page.reload();
    await page.getByText('1–30 of 35').waitFor({ timeout: 15_000 });
    await expect(grid.getByRole('row').count()).resolves.toBe(30);
    const pageOne = page.url();
    expect(pageOne).toMatch(/\/mail\/folder\/all\/\d+\/1$/);

    // None open: down opens the first row.
    await press(page, 'ArrowDown', subjectOf(35));
    expect(page.url()).toMatch(/\/1\/\d+$/);
    for (let i = 34; i >= 6; i--) await press(page, 'ArrowDown', subjectOf(i));
    expect(page.url()).toMatch(/\/mail\/folder\/all\/\d+\/1\/\d+$/);

    // The last row of page 1: down loads page 2 and opens its first message.
    await press(page, 'ArrowDown', subjectOf(5));
    expect(page.url()).toMatch(/\/mail\/folder\/all\/\d+\/2\/\d+$/);
    await page.getByText('31–35 of 35').waitFor();
    await press(page, 'ArrowDown', subjectOf(4));
    await press(page, 'ArrowUp', subjectOf(5));

    // Up at the top of page 2 goes back to the last message of page 1.
    await press(page, 'ArrowUp', subjectOf(6));
    expect(page.url()).toMatch(/\/mail\/folder\/all\/\d+\/1\/\d+$/);
    await page.getByText('1–30 of 35').waitFor();
    // The open row was brought into view at the bottom of the list.
    await expect(
      grid.locator('[aria-current="true"]').evaluate((row) => {
        const box = row.getBoundingClientRect();
        const scroller = row.closest('[data-testid="message-list-scroller"]')!.getBoundingClientRect();
        return box.top >= scroller.top && box.bottom <= scroller.bottom + 1;
      }),
    ).resolves.toBe(true);

    // Back in history returns to page 2's first message, as a shared link would.
    await page.goBack();
    await expect.poll(() => openSubject(page)).toBe(subjectOf(5));
    await context.close();
  });

  it('in an opened chain up and down step through its members before the next row', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Lee Chain');
    const to = `${memberId}@mailroom.test`;
    const start = Date.now() - 3600_000;
    const from = '"Dana Ross" <dana@example.org>';
    await transport.sendMail({ from, to, subject: 'Older and alone', text: 'x', date: new Date(start) });
    await transport.sendMail({
      from,
      to,
      subject: 'Trip plan',
      text: 'Day one.',
      messageId: '<trip-1@example.org>',
      date: new Date(start + 60_000),
    });
    await transport.sendMail({
      from,
      to,
      subject: 'Re: Trip plan (tickets)',
      text: 'Tickets.',
      inReplyTo: '<trip-1@example.org>',
      references: '<trip-1@example.org>',
      messageId: '<trip-2@example.org>',
      date: new Date(start + 120_000),
    });
    await transport.sendMail({
      from,
      to,
      subject: 'Re: Trip plan (hotel)',
      text: 'Hotel.',
      inReplyTo: '<trip-2@example.org>',
      references: '<trip-1@example.org> <trip-2@example.org>',
      date: new Date(start + 180_000),
    });
    const settings = await page.request.post(`${url}/api/v1/user/settings`, {
      headers: { 'x-mailroom-csrf': '1', origin: url },
      data: { message_thread: true },
    });
    expect(settings.ok()).toBe(true);
    await page.reload();
    const grid = page.getByRole('grid', { name: 'Messages' });
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 15_000 }).toBe(2);

    // Closed chain: down goes from the chain's row straight to the next row.
    await press(page, 'ArrowDown', 'Re: Trip plan (hotel)');
    await press(page, 'ArrowDown', 'Older and alone');
    await press(page, 'ArrowUp', 'Re: Trip plan (hotel)');

    await page.getByRole('button', { name: /Open the chain/ }).click();
    await expect.poll(() => grid.getByRole('row').count()).toBe(4);
    await press(page, 'ArrowDown', 'Re: Trip plan (tickets)');
    await press(page, 'ArrowDown', 'Trip plan');
    await press(page, 'ArrowDown', 'Older and alone');
    await press(page, 'ArrowUp', 'Trip plan');
    await press(page, 'ArrowUp', 'Re: Trip plan (tickets)');
    await press(page, 'ArrowUp', 'Re: Trip plan (hotel)');
    await context.close();
  });
});
