import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  deliverMany,
  launchBrowser,
  newPage,
  sharedServer,
  signUp,
  smtpTransport,
  folderItem,
} from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

async function apiTotal(page: Page, folderId: string): Promise<number> {
  const response = await page.request.get(`${url}/api/v1/messages/folder/${folderId}?page=1&limit=1`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { total: number }).total;
}

describe('drag and drop onto a folder', () => {
  it("a row dragged onto a folder with 'All in this folder' on moves every message of the folder, not the page", async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Al Drag');
    const start = Date.now() - 3600_000;
    await deliverMany(transport, 40, (i) => ({
      from: '"Digest" <digest@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: `Digest ${i}`,
      text: `Digest number ${i}.`,
      date: new Date(start + i * 60_000),
    }));
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByLabel('Folder name').fill('Old digests');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByTestId('success-dialog').getByRole('button', { name: 'Close' }).click();
    const target = folderItem(page, 'Old digests');
    await target.waitFor();
    await page.getByText('1–30 of 40').waitFor({ timeout: 15_000 });

    await page.getByRole('button', { name: 'Select messages' }).click();
    await page.getByRole('menuitem', { name: 'All in this folder' }).click();
    await page.getByText('Selected: 40').waitFor();
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Digest 37,/ }).dragTo(target);

    // All 40 moved, the 10 of page 2 too: the Inbox is empty and the selection is gone.
    await expect
      .poll(() => target.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe('Old digests, 40 unread');
    await page.getByText('Nothing here').waitFor({ timeout: 15_000 });
    await expect(page.getByText(/^Selected:/).count()).resolves.toBe(0);
    const inboxId = (await folderItem(page, 'Inbox').getAttribute('data-folder-id'))!;
    const targetId = (await target.getAttribute('data-folder-id'))!;
    expect(await apiTotal(page, inboxId)).toBe(0);
    expect(await apiTotal(page, targetId)).toBe(40);
    await context.close();
  });
  it('the open message dragged onto a folder moves, and the reader goes back to the list', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Ora Open');
    await deliverMany(transport, 2, (i) => ({
      from: '"Pat Doe" <pat@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: `Open me ${i}`,
      text: `Body of open ${i}.`,
    }));
    const grid = page.getByRole('grid', { name: 'Messages' });
    const row = grid.getByRole('row', { name: /Open me 2,/ });
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const reader = page.getByRole('region', { name: 'Message' });
    await reader.getByText('Body of open 2.').waitFor();
    await row.dragTo(folderItem(page, 'Junk'));
    await reader.getByText('No message selected').waitFor({ timeout: 10_000 });
    expect(new URL(page.url()).pathname).toMatch(/^\/mail\/folder\/all\/\d+\/1$/);
    await expect.poll(() => grid.getByRole('row').count()).toBe(1);
    await context.close();
  });
});
