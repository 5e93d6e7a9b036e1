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
  folderItem,
} from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

async function createFolder(page: Page, name: string) {
  await page.getByRole('button', { name: 'Create folder' }).click();
  await page.getByLabel('Folder name').fill(name);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  const done = page.getByTestId('success-dialog');
  await done.waitFor();
  await done.getByRole('button', { name: 'Close' }).click();
  await folderItem(page, name).waitFor();
}

/** A folder's messages as the API lists them (subjects), a check independent of what the screen shows. */
async function apiSubjects(page: Page, folderId: string): Promise<string[]> {
  const response = await page.request.get(`${url}/api/v1/messages/folder/${folderId}?page=1&limit=200`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { messages: { subject: string }[] }).messages.map((m) => m.subject);
}

describe('moving messages to another folder', () => {
  it('select-all in the select menu moves a whole 75-message Inbox, not just the page on screen', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Mo Vera');
    const start = Date.now() - 5 * 3600_000;
    await deliverMany(transport, 75, (i) => ({
      from: '"Newsletter" <news@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: `Issue ${i}`,
      text: `Issue number ${i}.`,
      date: new Date(start + i * 60_000),
    }));
    await createFolder(page, 'Archive');
    const inbox = folderItem(page, 'Inbox');
    await expect.poll(() => inbox.getAttribute('aria-label'), { timeout: 15_000 }).toBe('Inbox, 75 unread');
    await page.getByText('1–30 of 75').waitFor();

    await page.getByRole('button', { name: 'Select messages' }).click();
    await page.getByRole('menuitem', { name: 'All in this folder' }).click();
    await page.getByText('Selected: 75').waitFor();
    await expect(
      page.getByRole('checkbox', { name: 'Select all messages on this page' }).isChecked(),
    ).resolves.toBe(true);
    await page.getByRole('button', { name: 'Move to folder' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();

    // The source empties and the counters follow: Inbox has nothing unread, Archive has all 75.
    await page.getByText('Nothing here').waitFor({ timeout: 15_000 });
    await expect.poll(() => inbox.getAttribute('aria-label')).toBe('Inbox');
    const archive = folderItem(page, 'Archive');
    await expect.poll(() => archive.getAttribute('aria-label')).toBe('Archive, 75 unread');
    const inboxId = (await inbox.getAttribute('data-folder-id'))!;
    const archiveId = (await archive.getAttribute('data-folder-id'))!;
    expect(await apiSubjects(page, inboxId)).toEqual([]);
    const moved = await apiSubjects(page, archiveId);
    expect(moved).toHaveLength(75);
    expect(new Set(moved)).toEqual(new Set(Array.from({ length: 75 }, (_, i) => `Issue ${i + 1}`)));

    await archive.click();
    await page.getByText('1–30 of 75').waitFor();
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.getByText('31–60 of 75').waitFor();
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.getByText('61–75 of 75').waitFor();
    await expect(page.getByRole('grid', { name: 'Messages' }).getByRole('row').count()).resolves.toBe(15);
    await context.close();
  });

  it('dragging a row onto a folder moves it; dragging one of several ticked rows moves them all', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Dee Drag');
    const start = Date.now() - 3600_000;
    await deliverMany(transport, 5, (i) => ({
      from: '"Pat Doe" <pat@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: `Drag me ${i}`,
      text: `Body ${i}.`,
      date: new Date(start + i * 60_000),
    }));
    await createFolder(page, 'Projects');
    const grid = page.getByRole('grid', { name: 'Messages' });
    const row = (i: number) => grid.getByRole('row', { name: new RegExp(`Drag me ${i},`) });
    await row(1).waitFor({ timeout: 15_000 });
    const projects = folderItem(page, 'Projects');

    // One row, not selected: only it moves.
    await row(3).dragTo(projects);
    await expect
      .poll(() => projects.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('Projects, 1 unread');
    await expect.poll(() => grid.getByRole('row').count()).toBe(4);
    await expect(row(3).count()).resolves.toBe(0);

    // Two ticked rows: dragging either moves both, and the selection is cleared.
    await row(1).getByRole('checkbox').check();
    await row(4).getByRole('checkbox').check();
    await page.getByText('Selected: 2').waitFor();
    await screenshot(page, 'drag-selection-desktop-en');
    await row(4).dragTo(projects);
    await expect
      .poll(() => projects.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('Projects, 3 unread');
    await expect.poll(() => grid.getByRole('row').count()).toBe(2);
    await expect(page.getByText(/^Selected:/).count()).resolves.toBe(0);
    const inboxId = (await folderItem(page, 'Inbox').getAttribute('data-folder-id'))!;
    const projectsId = (await projects.getAttribute('data-folder-id'))!;
    expect((await apiSubjects(page, projectsId)).sort()).toEqual(['Drag me 1', 'Drag me 3', 'Drag me 4']);
    expect((await apiSubjects(page, inboxId)).sort()).toEqual(['Drag me 2', 'Drag me 5']);

    // Dropping on the folder the messages are already in changes nothing.
    await row(2).dragTo(folderItem(page, 'Inbox'));
    await new Promise((r) => setTimeout(r, 500));
    expect((await apiSubjects(page, inboxId)).sort()).toEqual(['Drag me 2', 'Drag me 5']);
    await context.close();
  });
});
