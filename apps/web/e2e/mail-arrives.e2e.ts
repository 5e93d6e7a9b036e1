import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { launchBrowser, newPage, screenshot, sharedServer, signUp } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();

describe('mail sent over SMTP arrives in the web app live', () => {
  it('a message with a Cyrillic subject and attachments appears in the Inbox without a reload, unread, and opens', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Ann Lee');
    const inbox = page.getByRole('tree', { name: 'Folders' }).getByRole('treeitem', { name: /^Inbox/ });
    await inbox.waitFor();
    await expect(inbox.getAttribute('aria-label')).resolves.toBe('Inbox');

    // Any SMTP client will do: nodemailer over a real socket to our SMTP port.
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: smtpPort,
      secure: false,
      ignoreTLS: true,
    });
    const info = await transport.sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'Платёж получен — счёт №42',
      text: 'Здравствуйте! Платёж за ноябрь получен.',
      html: '<p>Здравствуйте! <b>Платёж</b> за ноябрь получен.</p><img src="https://tracker.example/pixel.gif">',
      attachments: [
        {
          filename: 'счёт-42.pdf',
          content: Buffer.from('%PDF-1.4\n% test\n'),
          contentType: 'application/pdf',
        },
        { filename: 'notes.txt', content: 'plain notes' },
      ],
    });
    expect(info.accepted).toEqual([`${memberId}@mailroom.test`]);

    const row = page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /Платёж получен — счёт №42/ });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.getAttribute('aria-label')).resolves.toContain('Bob Sender');
    await expect
      .poll(() => inbox.getAttribute('aria-label'), { timeout: 10_000 })
      .toMatch(/^Inbox, 1 unread/);
    await expect.poll(() => page.title()).toMatch(/\(1\)/);
    await screenshot(page, 'inbox-new-mail-desktop-en');

    await row.click();
    const reader = page.getByRole('region', { name: 'Message' });
    await reader.getByText('Платёж получен — счёт №42').first().waitFor();
    await reader.getByText('Bob Sender').first().waitFor();
    await reader.getByText('счёт-42.pdf').waitFor();
    await reader.getByText('notes.txt').waitFor();
    // Opening marks it read: the Inbox counter goes away.
    await expect.poll(() => inbox.getAttribute('aria-label'), { timeout: 10_000 }).toBe('Inbox');
    await screenshot(page, 'reader-desktop-en');
    const readerUrl = page.url();

    // Full-text search finds it by a Russian word prefix, without the ё.
    const search = page.getByRole('searchbox', { name: 'Search mail' });
    await search.fill('платеж');
    await search.press('Enter');
    await page.waitForURL(/\/mail\/search\//);
    await page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /Платёж получен — счёт №42/ })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'search-desktop-en');
    await search.fill('nonexistentword');
    await search.press('Enter');
    await expect
      .poll(() => page.getByRole('grid', { name: 'Messages' }).getByRole('row').count(), { timeout: 10_000 })
      .toBe(0);

    const mobile = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await context.storageState(),
    });
    const mobilePage = await mobile.newPage();
    await mobilePage.goto(readerUrl + (readerUrl.includes('?') ? '&' : '?') + 'lang=ru');
    await mobilePage
      .getByRole('region', { name: 'Письмо' })
      .getByText('Платёж получен — счёт №42')
      .first()
      .waitFor();
    await screenshot(mobilePage, 'reader-mobile-ru');
    await mobile.close();
    await context.close();
  });
});
