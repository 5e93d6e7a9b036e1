import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import {
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

/** A folder's messages as the API lists them, a check independent of what the screen shows. */
async function apiMessages(page: Page, folderId: string) {
  const response = await page.request.get(`${url}/api/v1/messages/folder/${folderId}?page=1&limit=200`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { messages: { subject: string; flags: { flagged: boolean } }[] })
    .messages;
}

async function deliver(memberId: string, subjects: string[]) {
  for (const subject of subjects) {
    await transport.sendMail({
      from: '"Rita Undo" <rita@example.org>',
      to: `${memberId}@mailroom.test`,
      subject,
      text: `About ${subject}.`,
    });
  }
}

describe('the success box', () => {
  it('delete, move and spam say so in a box that blocks nothing, and Undo brings the messages back', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Una Undo');
    await deliver(memberId, ['Keep me flagged', 'Move me', 'Not spam really']);
    const grid = page.getByRole('grid', { name: 'Messages' });
    const row = (subject: string) => grid.getByRole('row', { name: new RegExp(subject) });
    await row('Not spam really').waitFor({ timeout: 15_000 });
    const inbox = folderItem(page, 'Inbox');
    const inboxId = (await inbox.getAttribute('data-folder-id'))!;

    // The Delete key asks nothing; the box offers Undo and the rest of the screen stays usable meanwhile.
    await row('Keep me flagged').getByRole('button', { name: 'Flag' }).click();
    await row('Keep me flagged').getByRole('checkbox').check();
    // The selection's actions (and their keys) come with the toolbar that shows once something is ticked.
    await page.getByRole('button', { name: 'Move to Junk' }).waitFor();
    await page.keyboard.press('Delete');
    const box = page.getByTestId('success-dialog');
    await box.waitFor();
    expect(await box.textContent()).toContain('Moved to Trash');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await page.waitForTimeout(300); // the box rises in
    await screenshot(page, 'success-undo-desktop-en');
    await row('Move me').click();
    await page.waitForURL(/\/mail\/folder\/all\/\d+\/1\/\d+$/);
    await box.getByRole('button', { name: 'Undo' }).click();
    await box.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () => (await apiMessages(page, inboxId)).find((m) => m.subject === 'Keep me flagged')?.flags,
      )
      .toMatchObject({ flagged: true });
    await row('Keep me flagged').waitFor();

    // Move to a folder, then undo.
    await page.goto(`${url}/mail`);
    await row('Move me').getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Move to folder' }).click();
    await page.getByRole('menuitem', { name: 'Trash' }).click();
    await box.waitFor();
    expect(await box.textContent()).toContain('Moved to Trash');
    await expect(row('Move me').count()).resolves.toBe(0);
    await box.getByRole('button', { name: 'Undo' }).click();
    await row('Move me').waitFor();

    // Spam, then undo; and a box left alone goes by itself after its 4 s.
    await row('Not spam really').getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Move to Junk' }).click();
    await box.waitFor();
    expect(await box.textContent()).toContain('Moved to Junk');
    await box.getByRole('button', { name: 'Undo' }).click();
    await row('Not spam really').waitFor();
    expect((await apiMessages(page, inboxId)).map((m) => m.subject).sort()).toEqual([
      'Keep me flagged',
      'Move me',
      'Not spam really',
    ]);
    await row('Move me').getByRole('checkbox').check();
    await page.keyboard.press('Delete');
    await box.waitFor();
    await box.waitFor({ state: 'detached', timeout: 8_000 });
    await expect(row('Move me').count()).resolves.toBe(0);
    await context.close();
  });

  it('looks right on a phone in Russian', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 }, 'ru-RU');
    const memberId = await signUp(page, url, 'Ula Phone');
    await deliver(memberId, ['Телефон']);
    const row = page.getByRole('grid').getByRole('row', { name: /Телефон/ });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'В спам' }).waitFor();
    await page.keyboard.press('Delete');
    const box = page.getByTestId('success-dialog');
    await box.waitFor();
    expect(await box.textContent()).toContain('Перемещено в корзину');
    await page.waitForTimeout(300); // the box rises in
    await screenshot(page, 'success-undo-phone-ru');
    await box.getByRole('button', { name: 'Отменить' }).click();
    await row.waitFor();
    await context.close();
  });
});

describe('the server out of reach', () => {
  it('a failed click shows the error box in a page that still works, and parts that could not load try again', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Nell Offline');
    await deliver(memberId, ['Still here']);
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Still here/ }).waitFor({ timeout: 15_000 });

    // The menu's code is fetched on hover, as a user's pointer would; the settings page's code is not.
    await page.getByRole('button', { name: 'More actions' }).hover();
    // The server goes away (the browser itself stays online): every request to it is refused.
    const serverDown = (route: Route) => route.abort('connectionrefused');
    await context.route(`${url}/**`, serverDown);
    // A request that fails: the error box shows, and the list stays on screen.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const error = page.getByTestId('error-dialog');
    await error.waitFor();
    expect(await error.textContent()).toContain('An error occured!');
    expect(await error.textContent()).toContain('The server cannot be reached');
    await grid.getByRole('row', { name: /Still here/ }).waitFor();
    await error.getByRole('button', { name: 'Close' }).click();

    // A part whose code is not loaded yet (advanced search): the chunk failure is said, nothing else breaks.
    await page.getByRole('button', { name: 'Advanced search' }).click();
    await error.waitFor();
    expect(await error.textContent()).toContain('Loading chunk failed');
    await error.getByRole('button', { name: 'Close' }).click();
    // A page whose code is not loaded yet: the panel shows inside the shell, whose sidebar still works.
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    const panel = page.getByRole('alert').filter({ hasText: 'Loading chunk failed' });
    await panel.waitFor();
    await screenshot(page, 'chunk-failed-desktop-en');
    await folderItem(page, 'Inbox').waitFor();

    // Back online: both load on the next try, without a reload.
    await context.unroute(`${url}/**`, serverDown);
    await panel.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Settings' }).first().waitFor({ timeout: 15_000 });
    await page.goBack();
    await page.getByRole('button', { name: 'Advanced search' }).click();
    await page.getByRole('checkbox', { name: 'Subject' }).waitFor({ timeout: 15_000 });
    await context.close();
  });
});
