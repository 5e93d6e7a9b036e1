import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  folderItem,
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

/** A moment `seconds` ahead as a datetime-local value (with seconds) in the browser's own zone. */
function localInputIn(page: Page, seconds: number): Promise<string> {
  return page.evaluate((ahead) => {
    const at = new Date(Date.now() + ahead * 1000);
    const pad = (value: number) => String(value).padStart(2, '0');
    return (
      `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}` +
      `T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`
    );
  }, seconds);
}

const rowsOf = (page: Page) => page.getByRole('grid', { name: /^(Messages|Письма)$/ }).getByRole('row');

describe('snooze (issue 31)', () => {
  it('a snoozed message leaves the Inbox for Snoozed and comes back at its time, unread, at the top, live', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Sunny Later');
    const to = `${memberId}@mailroom.test`;
    for (const [subject, text] of [
      ['Quarterly report', 'The report is attached.'],
      ['Lunch on Friday?', 'Shall we?'],
      ['Invoice 17', 'Please pay by Monday.'],
    ]) {
      await transport.sendMail({ from: '"Rita Sender" <rita@example.org>', to, subject, text });
    }
    const inbox = folderItem(page, 'Inbox');
    await expect.poll(() => inbox.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Inbox, 3 unread');
    // Scheduled and Snoozed are system folders of the sidebar, after Drafts.
    await folderItem(page, 'Scheduled').waitFor();
    await folderItem(page, 'Snoozed').waitFor();

    // The oldest, Quarterly report, read first so that coming back unread shows.
    const report = rowsOf(page).filter({ hasText: 'Quarterly report' });
    await report.click();
    await page.getByRole('region', { name: 'Message' }).getByText('The report is attached.').waitFor();
    await expect.poll(() => inbox.getAttribute('aria-label')).toBe('Inbox, 2 unread');

    // Snooze › Pick a time…: 45 seconds ahead.
    const reader = page.getByRole('region', { name: 'Message' });
    await reader.getByRole('button', { name: 'Snooze' }).click();
    await page.getByRole('menuitem', { name: /^Tomorrow/ }).waitFor();
    await page.waitForTimeout(300); // the menu's fade-in
    await screenshot(page, 'snooze-menu-desktop-en');
    await page.getByRole('menuitem', { name: 'Pick a time…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Snooze until' });
    const pickedAt = Date.now();
    await dialog.getByLabel('Date and time').fill(await localInputIn(page, 45));
    await page.waitForTimeout(300); // the dialog's fade-in
    await screenshot(page, 'snooze-pick-desktop-en');
    await dialog.getByRole('button', { name: 'Snooze' }).click();
    await page.getByText(/^Snoozed until /).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => report.count(), { timeout: 10_000 }).toBe(0);
    await expect.poll(() => rowsOf(page).count()).toBe(2);

    // It waits in Snoozed, its row saying until when.
    await folderItem(page, 'Snoozed').click();
    const snoozedRow = rowsOf(page).filter({ hasText: 'Quarterly report' });
    await snoozedRow.waitFor({ timeout: 10_000 });
    const snoozedPath = new URL(page.url()).pathname;
    await expect(snoozedRow.getAttribute('aria-label')).resolves.toMatch(/until /);
    await snoozedRow.click();
    await page
      .getByRole('region', { name: 'Message' })
      .getByText(/^Snoozed until /)
      .waitFor();
    await screenshot(page, 'snoozed-folder-desktop-en');

    // Back to the Inbox, and wait there (no reload): at its time it comes back at the top, unread, with its note.
    await inbox.click();
    await expect.poll(() => rowsOf(page).count()).toBe(2);
    const backRow = rowsOf(page).first();
    await expect
      .poll(() => backRow.getAttribute('aria-label'), { timeout: 90_000 })
      .toMatch(/Quarterly report.*Back from snooze.*unread/);
    const late = Date.now() - (pickedAt + 45_000);
    // Its time was picked to the second; the due-item poll runs each second.
    expect(late).toBeLessThan(15_000);
    await expect.poll(() => inbox.getAttribute('aria-label')).toBe('Inbox, 3 unread');
    await backRow.getByText('Back from snooze').waitFor();
    await screenshot(page, 'snooze-returned-desktop-en');
    await backRow.click();
    await page
      .getByRole('region', { name: 'Message' })
      .getByText(/^Back from snooze \(snoozed until /)
      .waitFor();
    await screenshot(page, 'snooze-returned-reader-desktop-en');

    // Unsnooze by hand: Lunch snoozed until tomorrow from the list, then brought back from Snoozed.
    const lunch = rowsOf(page).filter({ hasText: 'Lunch on Friday?' });
    await lunch.getByRole('checkbox').check();
    await page
      .getByRole('toolbar', { name: 'Message actions' })
      .getByRole('button', { name: 'Snooze' })
      .click();
    await page.getByRole('menuitem', { name: /^Tomorrow/ }).click();
    await page.getByText(/^Snoozed until /).waitFor();
    await expect.poll(() => lunch.count(), { timeout: 10_000 }).toBe(0);
    await folderItem(page, 'Snoozed').click();
    const lunchSnoozed = rowsOf(page).filter({ hasText: 'Lunch on Friday?' });
    await lunchSnoozed.waitFor({ timeout: 10_000 });
    await lunchSnoozed.getByRole('checkbox').check();
    await page
      .getByRole('toolbar', { name: 'Message actions' })
      .getByRole('button', { name: 'Unsnooze' })
      .click();
    await expect.poll(() => lunchSnoozed.count(), { timeout: 10_000 }).toBe(0);
    await inbox.click();
    await rowsOf(page).filter({ hasText: 'Lunch on Friday?' }).waitFor({ timeout: 10_000 });

    // Russian on a phone: the menu and a snoozed row.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await context.storageState(),
      locale: 'ru-RU',
      hasTouch: true,
      isMobile: true,
    });
    const phonePage = await phone.newPage();
    await phonePage.goto(`${url}/mail?lang=ru`);
    const invoice = rowsOf(phonePage).filter({ hasText: 'Invoice 17' });
    await invoice.waitFor({ timeout: 15_000 });
    await invoice.getByRole('checkbox').check();
    await phonePage
      .getByRole('toolbar', { name: 'Действия с письмами' })
      .getByRole('button', { name: 'Отложить' })
      .click();
    await phonePage.getByRole('menuitem', { name: /^Завтра/ }).waitFor();
    await phonePage.waitForTimeout(300);
    await screenshot(phonePage, 'snooze-menu-mobile-ru');
    await phonePage.getByRole('menuitem', { name: /^На следующей неделе/ }).click();
    await phonePage.getByText(/^Отложено до /).waitFor();
    await screenshot(phonePage, 'snooze-done-mobile-ru');
    await phonePage.goto(`${url}${snoozedPath}?lang=ru`);
    const invoiceSnoozed = rowsOf(phonePage).filter({ hasText: 'Invoice 17' });
    await invoiceSnoozed.waitFor({ timeout: 10_000 });
    await expect(invoiceSnoozed.getAttribute('aria-label')).resolves.toMatch(/до /);
    await screenshot(phonePage, 'snoozed-folder-mobile-ru');
    await invoiceSnoozed.click();
    await phonePage.getByText(/^Отложено до /).waitFor();
    await screenshot(phonePage, 'snoozed-reader-mobile-ru');
    await phone.close();
    await context.close();
  });
});
