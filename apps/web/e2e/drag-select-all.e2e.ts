import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deliverMany, launchBrowser, newPage, signUp, smtpTransport, startServer } from './_harness.js';

const { url, smtpPort } = await startServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

function folderItem(page: Page, name: string) {
  return page
    .getByRole('tree', { name: 'Folders' })
    .getByRole('treeitem', { name: new RegExp(`^${name}(,|$)`) });
}

async function apiTotal(page: Page, folderId: string): Promise<number> {
  const response = await page.request.get(`${url}/api/v1/messages/folder/${folderId}?page=1&limit=1`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { total: number }).total;
}

describe('drag and drop with select-all', () => {
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
});
