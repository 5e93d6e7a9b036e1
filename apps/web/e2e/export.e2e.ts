import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  launchBrowser,
  newPage,
  phoneShot,
  screenshot,
  sharedServer,
  signUp,
  smtpTransport,
} from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/** Clicks what starts a download and gives the saved file's name and bytes. */
async function download(page: Page, start: () => Promise<void>) {
  const [saved] = await Promise.all([page.waitForEvent('download'), start()]);
  return { name: saved.suggestedFilename(), bytes: await fs.readFile((await saved.path())!) };
}

describe('taking mail away in the browser', () => {
  it("exports a folder from its menu as mbox and zip, and downloads a message's .eml from the reader", async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Ann Export');
    const to = `${memberId}@mailroom.test`;
    await transport.sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to,
      subject: 'Quarterly report',
      text: 'Numbers below.\nFrom the finance team, with love.\n>From a quoted line\n',
    });
    await transport.sendMail({ from: 'carol@example.org', to, subject: 'Lunch?', text: 'At noon.' });
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Lunch\?/ }).waitFor({ timeout: 15_000 });

    // The Inbox's menu: export only (a system folder is never renamed or deleted).
    await page.getByRole('button', { name: 'Actions for folder Inbox' }).click();
    await page.getByRole('menuitem', { name: 'Export as mbox' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Rename' }).count()).toBe(0);
    await page.waitForTimeout(300); // the menu's fade-in
    await screenshot(page, 'export-folder-menu-desktop-en');
    const mbox = await download(page, () => page.getByRole('menuitem', { name: 'Export as mbox' }).click());
    expect(mbox.name).toMatch(/^Inbox \d{4}-\d\d-\d\d\.mbox$/);
    const text = mbox.bytes.toString('utf8');
    expect(text.match(/^From \S+ \w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/gm)).toHaveLength(2);
    expect(text).toContain('Subject: Quarterly report');
    expect(text).toContain('Subject: Lunch?');
    // The body's lines that begin with From are quoted, so no reader takes them for a new message.
    expect(text).toMatch(/^>From the finance team/m);
    expect(text).toMatch(/^>>From a quoted line/m);

    await page.getByRole('button', { name: 'Actions for folder Inbox' }).click();
    const zip = await download(page, () =>
      page.getByRole('menuitem', { name: 'Export as zip of .eml files' }).click(),
    );
    expect(zip.name).toMatch(/^Inbox \d{4}-\d\d-\d\d\.zip$/);
    expect(zip.bytes.subarray(0, 4).toString('latin1')).toBe('PK\x03\x04');
    expect(zip.bytes.toString('latin1')).toMatch(/Inbox\/\d+ Quarterly report\.eml/);

    // One message, exactly as stored.
    await grid.getByRole('row', { name: /Quarterly report/ }).click();
    await page.getByRole('button', { name: 'More actions for this message' }).click();
    const eml = await download(page, () => page.getByRole('menuitem', { name: 'Download .eml' }).click());
    expect(eml.name).toBe('Quarterly report.eml');
    const message = eml.bytes.toString('utf8');
    expect(message).toContain('Subject: Quarterly report');
    expect(message).toMatch(/\r\nFrom the finance team, with love\.\r\n>From a quoted line/);
    expect(text).toContain(message.split('\r\n\r\n')[1]!.split('\r\n')[0]!);

    // A search's results: every match, not the page on screen.
    const search = page.getByRole('searchbox', { name: 'Search mail' });
    await search.fill('Quarterly');
    await search.press('Enter');
    await page.waitForURL(/\/mail\/search\//);
    await expect.poll(() => grid.getByRole('row').count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('button', { name: 'Export the results' }).click();
    const found = await download(page, () => page.getByRole('menuitem', { name: 'Export as mbox' }).click());
    expect(found.name).toMatch(/\.mbox$/);
    expect(found.bytes.toString('utf8').match(/^From \S+ /gm)).toHaveLength(1);
    expect(found.bytes.toString('utf8')).toContain('Subject: Quarterly report');

    // Settings › Export: the whole mailbox or a chosen folder.
    await page.goto(`${url}/settings/export`);
    await page.getByRole('heading', { name: 'The whole mailbox' }).waitFor();
    const whole = await download(page, () =>
      page.getByRole('link', { name: 'Export as mbox' }).first().click(),
    );
    expect(whole.name).toMatch(/^mail \d{4}-\d\d-\d\d\.mbox$/);
    expect(whole.bytes.toString('utf8').match(/^From \S+ /gm)).toHaveLength(2);
    await screenshot(page, 'settings-export-desktop-en');
    await phoneShot(browser, url, context, '/settings/export', 'settings-export-phone-en', (p) =>
      p.getByRole('heading', { name: 'The whole mailbox' }).waitFor(),
    );
    await context.close();
  });

  it('reads in Russian: the folder menu, a Russian folder name in the file name, Settings › Export', async () => {
    const { context, page } = await newPage(browser, undefined, 'ru-RU');
    const memberId = await signUp(page, url, 'Лена Выгрузка');
    // The phone's screenshot (a context of its own, with this one's cookies) speaks Russian too.
    await context.addCookies([{ name: 'lang', value: 'ru', url }]);
    const created = await page.request.post(`${url}/api/v1/folders`, {
      headers: { 'x-mailroom-csrf': '1', origin: url },
      data: { folder: { parent_id: null, name: 'Работа' } },
    });
    expect(created.ok()).toBe(true);
    const folderId = (await created.json()).folder.id as number;
    await transport.sendMail({ from: 'boss@example.org', to: `${memberId}@mailroom.test`, subject: 'План' });
    await page.reload();
    await page.getByRole('treeitem', { name: /^Работа/ }).waitFor();
    await page.getByRole('button', { name: 'Действия с папкой Работа' }).click();
    await page.getByRole('menuitem', { name: 'Выгрузить в mbox' }).waitFor();
    await page.waitForTimeout(300);
    await screenshot(page, 'export-folder-menu-desktop-ru');
    const file = await download(page, () => page.getByRole('menuitem', { name: 'Выгрузить в mbox' }).click());
    expect(file.name).toMatch(/^Работа \d{4}-\d\d-\d\d\.mbox$/);
    expect(folderId).toBeGreaterThan(0);

    await page.goto(`${url}/settings/export`);
    await page.getByRole('heading', { name: 'Весь ящик' }).waitFor();
    await screenshot(page, 'settings-export-desktop-ru');
    await phoneShot(browser, url, context, '/settings/export', 'settings-export-phone-ru', (p) =>
      p.getByRole('heading', { name: 'Весь ящик' }).waitFor(),
    );
    await context.close();
  });
});
