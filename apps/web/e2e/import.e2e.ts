import { describe, expect, it } from 'vitest';
import { launchBrowser, newPage, phoneShot, screenshot, sharedServer, signUp } from './_harness.js';
import { mbox } from '../../../test-support/mail-archives.js';

const { url } = sharedServer();
const browser = await launchBrowser();

/** A Google Takeout-shaped mbox: Gmail's labels in X-Gmail-Labels; `bigBytes` makes it span parts of 8 MiB. */
function takeout(tag: string, bigBytes = 0) {
  const message = (n: number, labels: string, subject: string, body: string) =>
    Buffer.from(
      `X-Gmail-Labels: ${labels}\r\nMessage-ID: <${tag}${n}@takeout.test>\r\n` +
        `From: "Old Friend" <friend@example.org>\r\nTo: me@example.org\r\nSubject: ${subject}\r\n` +
        `Date: Tue, 3 Mar 2026 09:0${n}:00 +0000\r\n\r\n${body}\r\n`,
    );
  const line = 'The scanned pages follow, line after line, as they were. '.padEnd(76, '.');
  const big = Array.from({ length: Math.ceil(bigBytes / 78) }, () => line).join('\r\n');
  return mbox([
    message(1, 'Inbox,Travel,Opened', 'Flight to Lisbon', 'Boarding at 9.'),
    message(2, 'Sent,Opened', 'Quarterly numbers', 'Attached, as promised.'),
    message(3, 'Inbox,Starred,Unread', 'Scanned contract', bigBytes ? big : 'Short.'),
    message(4, 'Trash,Opened', 'Old newsletter', 'Nothing to see.'),
  ]);
}

describe('bringing mail in from a file', () => {
  it('uploads a Takeout mbox in parts from Settings › Import, rides out a dropped part, and finds its folders and labels', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Ann Import');
    await page.goto(`${url}/settings/import`);
    await page.getByRole('heading', { name: 'Upload a file' }).waitFor();
    await page.getByText('Nothing has been imported yet.').waitFor();

    // The second part's first try loses its connection: the upload waits, sends it again, and goes on.
    let dropped = 0;
    await page.route('**/api/v1/imports/uploads/*/parts/1', async (route) => {
      if (dropped++ === 0) return route.abort('connectionreset');
      return route.continue();
    });
    const file = takeout('e2e', 9 * 2 ** 20);
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'Takeout.mbox', mimeType: 'application/mbox', buffer: file });
    await page.getByText(/Takeout\.mbox · 9(\.\d)? MB/).waitFor();
    await page.getByRole('switch', { name: 'Run my filters on the imported mail' }).waitFor();
    await page.getByRole('button', { name: 'Upload and import' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'waiting for the connection' })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'settings-import-uploading-desktop-en');

    const item = page.getByTestId('mail-import').filter({ hasText: 'Takeout.mbox' });
    await item.getByText('Done').waitFor({ timeout: 60_000 });
    expect(dropped).toBeGreaterThanOrEqual(2);
    await item.getByText('added: 4').waitFor();
    await item.getByText('4 of 4 messages gone through').waitFor();
    await screenshot(page, 'settings-import-desktop-en');
    await phoneShot(browser, url, context, '/settings/import', 'settings-import-phone-en', (p) =>
      p.getByText('added: 4').waitFor(),
    );

    // The same file again: nothing is added twice.
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'Takeout.mbox', mimeType: 'application/mbox', buffer: file });
    await page.getByRole('button', { name: 'Upload and import' }).click();
    await page.getByTestId('mail-import').first().getByText('already here: 4').waitFor({ timeout: 60_000 });

    // In the mail: the Inbox holds its two, Sent its one, and Gmail's own label is a label.
    await page.goto(`${url}/mail`);
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Flight to Lisbon/ }).waitFor();
    await grid.getByRole('row', { name: /Scanned contract/ }).waitFor();
    await page.getByRole('list', { name: 'Labels' }).getByText('Travel').click();
    await grid.getByRole('row', { name: /Flight to Lisbon/ }).waitFor();
    expect(await grid.getByRole('row', { name: /Scanned contract/ }).count()).toBe(0);
    await page.getByRole('treeitem', { name: /^Sent/ }).click();
    await grid.getByRole('row', { name: /Quarterly numbers/ }).waitFor();
    await context.close();
  });

  it('reads in Russian: Settings › Import with an import done', async () => {
    const { context, page } = await newPage(browser, undefined, 'ru-RU');
    await signUp(page, url, 'Лена Импорт');
    await context.addCookies([{ name: 'lang', value: 'ru', url }]);
    await page.goto(`${url}/settings/import`);
    await page.getByRole('heading', { name: 'Загрузить файл' }).waitFor();
    await page
      .getByLabel('Выбрать файл')
      .setInputFiles({ name: 'Почта.mbox', mimeType: 'application/mbox', buffer: takeout('ru') });
    await page.getByRole('button', { name: 'Загрузить и импортировать' }).click();
    await page.getByTestId('mail-import').getByText('Готово').waitFor({ timeout: 60_000 });
    await page.getByText('добавлено: 4').waitFor();
    await screenshot(page, 'settings-import-desktop-ru');
    await phoneShot(browser, url, context, '/settings/import', 'settings-import-phone-ru', (p) =>
      p.getByText('добавлено: 4').waitFor(),
    );
    await context.close();
  });
});
