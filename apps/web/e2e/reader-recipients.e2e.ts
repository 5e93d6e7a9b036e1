import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/** The names shown under one recipient header of the reader (To, Cc, Bcc), after opening any '+N'. */
async function shown(reader: Locator, header: string): Promise<string[]> {
  const group = reader.getByRole('group', { name: header, exact: true });
  const more = group.getByRole('button', { name: /more recipients|ещё получателей/ });
  if (await more.count()) await more.click();
  return group.locator('span[title]').allTextContents();
}

async function openRow(page: Page, subject: string): Promise<Locator> {
  await page
    .getByRole('grid', { name: 'Messages' })
    .getByRole('row', { name: new RegExp(subject) })
    .click();
  const reader = page.getByRole('region', { name: 'Message' });
  await reader.getByRole('heading', { name: subject }).waitFor();
  return reader;
}

/** A message from outside with To, Cc and a Bcc header that is the sender's claim, not the reader's to show. */
function incoming(to: string): string {
  return [
    'From: Olga Berg <olga@example.org>',
    `To: Ann Lee <${to}>, Pavel Orlov <pavel@example.org>, Rita <rita@example.org>`,
    'Cc: Carol King <carol@example.org>, Dave <dave@example.org>',
    'Bcc: Spy <spy@example.org>',
    'Subject: Planning the offsite',
    `Date: ${new Date().toUTCString()}`,
    'Message-ID: <offsite-1@example.org>',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Shall we meet on Friday?',
    '',
  ].join('\r\n');
}

describe('the reader shows To, Cc and Bcc apart', () => {
  it('a received message lists Cc under Cc, never Bcc; the user’s own sent mail shows Bcc too', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Ann Lee');
    const address = `${memberId}@mailroom.test`;
    await transport.sendMail({
      envelope: { from: 'olga@example.org', to: [address] },
      raw: incoming(address),
    });

    const reader = await openRow(page, 'Planning the offsite');
    await expect.poll(() => shown(reader, 'To')).toEqual(['Ann Lee', 'Pavel Orlov', 'Rita']);
    await expect(shown(reader, 'Cc')).resolves.toEqual(['Carol King', 'Dave']);
    await expect(reader.getByRole('group', { name: 'Bcc' }).count()).resolves.toBe(0);
    await reader.getByText('Spy').waitFor({ state: 'detached' });
    const receivedUrl = page.url();
    await page.reload();
    await reader.getByRole('group', { name: 'Cc', exact: true }).waitFor();
    await screenshot(page, 'reader-cc-desktop-en');

    // In Russian, Кому and Копия; on a phone too, the third addressee behind '+1'.
    const views = [
      {
        name: 'reader-cc-mobile-ru',
        viewport: { width: 390, height: 844 },
        lang: 'ru',
        cc: 'Копия',
        to: 'Кому',
      },
      {
        name: 'reader-cc-desktop-ru',
        viewport: { width: 1440, height: 900 },
        lang: 'ru',
        cc: 'Копия',
        to: 'Кому',
      },
      { name: 'reader-cc-mobile-en', viewport: { width: 390, height: 844 }, lang: 'en', cc: 'Cc', to: 'To' },
    ];
    for (const view of views) {
      const other = await browser.newContext({
        viewport: view.viewport,
        storageState: await context.storageState(),
      });
      const otherPage = await other.newPage();
      await otherPage.goto(`${receivedUrl}${receivedUrl.includes('?') ? '&' : '?'}lang=${view.lang}`);
      const otherReader = otherPage.getByRole('region', { name: view.lang === 'ru' ? 'Письмо' : 'Message' });
      await otherReader.getByRole('group', { name: view.cc, exact: true }).waitFor();
      await screenshot(otherPage, view.name);
      await expect(shown(otherReader, view.cc)).resolves.toEqual(['Carol King', 'Dave']);
      await expect(shown(otherReader, view.to)).resolves.toEqual(['Ann Lee', 'Pavel Orlov', 'Rita']);
      await other.close();
    }

    // Ann writes with To, Cc and Bcc; her Sent copy shows each apart.
    await page.getByRole('button', { name: 'New message' }).first().click();
    const compose = page.getByTestId('compose-window');
    const recipient = async (label: string, value: string) => {
      const field = compose.getByRole('combobox', { name: label, exact: true });
      await field.fill(value);
      await field.press('Tab');
    };
    await recipient('To', address);
    await compose.getByRole('button', { name: 'Cc', exact: true }).click();
    await recipient('Cc', 'carol@example.org');
    await compose.getByRole('button', { name: 'Bcc', exact: true }).click();
    await recipient('Bcc', 'boss@example.org');
    await compose.getByLabel('Subject').fill('Offsite agenda');
    await compose.getByRole('textbox', { name: 'Message text' }).click();
    await page.keyboard.type('Agenda attached soon.');
    await compose.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('success-dialog').waitFor({ timeout: 30_000 });
    await page.getByTestId('success-dialog').getByRole('button', { name: 'Close' }).click();

    await page.getByRole('tree', { name: 'Folders' }).getByRole('treeitem', { name: /^Sent/ }).click();
    const sent = await openRow(page, 'Offsite agenda');
    await expect.poll(() => shown(sent, 'To')).toEqual([address]);
    await expect(shown(sent, 'Cc')).resolves.toEqual(['carol@example.org']);
    await expect(shown(sent, 'Bcc')).resolves.toEqual(['boss@example.org']);
    await screenshot(page, 'reader-bcc-sent-desktop-en');
    await context.close();
  });
});
