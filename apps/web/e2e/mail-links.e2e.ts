import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);
const write = { 'x-mailroom-csrf': '1', origin: url };

async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(`${url}/api/v1/${path}`, { method, data, headers: write });
  expect(response.ok(), `${method} ${path}`).toBe(true);
  return (await response.json()) as T;
}

/** The reader's subject heading once the URL names an open message. */
async function expectOpen(page: Page, subject: string) {
  await page.waitForURL(/\/mail\/folder\/[^/]+\/\d+\/1\/\d+$/, { timeout: 15_000 });
  await page.getByRole('article', { name: 'Message' }).getByRole('heading', { name: subject }).waitFor();
}

describe('links to /mail with a query (SPEC §2)', () => {
  it('message_id and uid open the message; label shows the label; sender searches; recipient opens compose', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Lin Kwan');
    const to = `${memberId}@mailroom.test`;
    await transport.sendMail({
      from: '"Olga Invoices" <olga@example.org>',
      to,
      subject: 'Invoice 7',
      text: 'Pay by Friday.',
      messageId: '<invoice-7@example.org>',
    });
    await transport.sendMail({ from: '"Pete" <pete@example.org>', to, subject: 'Lunch?', text: 'At one.' });
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Lunch\?/ }).waitFor({ timeout: 15_000 });

    await page.goto(`${url}/mail?message_id=${encodeURIComponent('<invoice-7@example.org>')}`);
    await expectOpen(page, 'Invoice 7');

    const { folders } = await api<{ folders: { id: number; system: string | null }[] }>(
      page,
      'GET',
      'folders',
    );
    const inboxId = folders.find((f) => f.system === 'inbox')!.id;
    const list = await api<{ messages: { uid: number; subject: string }[] }>(
      page,
      'GET',
      `messages/folder/${inboxId}?page=1&limit=30`,
    );
    const lunch = list.messages.find((m) => m.subject === 'Lunch?')!;
    await page.goto(`${url}/mail?uid=${lunch.uid}`);
    await expectOpen(page, 'Lunch?');

    const { label } = await api<{ label: { id: number } }>(page, 'POST', 'labels', {
      label: { name: 'Bills', search_content: 'nothing-matches-this' },
    });
    const invoice = list.messages.find((m) => m.subject === 'Invoice 7')!;
    await api(page, 'POST', 'messages/mark', {
      flag: 'label',
      label_id: label.id,
      folder_messages: [{ folder_id: inboxId, message_uids: [invoice.uid] }],
    });
    await page.goto(`${url}/mail?label=${label.id}`);
    await page.waitForURL(new RegExp(`/mail/label/all/${label.id}/1$`));
    await grid.getByRole('row', { name: /Invoice 7/ }).waitFor();
    await expect(grid.getByRole('row').count()).resolves.toBe(1);

    await page.goto(`${url}/mail?sender=pete@example.org`);
    await page.waitForURL(/\/mail\/search\//);
    await grid.getByRole('row', { name: /Lunch\?/ }).waitFor();
    await expect(grid.getByRole('row').count()).resolves.toBe(1);

    await page.goto(`${url}/mail?recipient=someone@example.net`);
    const compose = page.getByRole('dialog', { name: 'New message' });
    await compose.waitFor({ timeout: 15_000 });
    await compose.getByText('someone@example.net').waitFor();
    await grid.getByRole('row', { name: /Lunch\?/ }).waitFor();

    // A message_id that is not there: the error box, and the Inbox.
    await page.goto(`${url}/mail?message_id=${encodeURIComponent('<nothing@example.org>')}`);
    await page.getByTestId('error-dialog').waitFor();
    await page.waitForURL(new RegExp(`/mail/folder/all/${inboxId}/1$`));
    await context.close();
  });
});
