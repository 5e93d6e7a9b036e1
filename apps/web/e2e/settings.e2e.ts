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

const write = { 'x-mailroom-csrf': '1', origin: url };
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

async function api<T>(page: Page, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response = await page.request.fetch(`${url}/api/v1/${path}`, { method, headers: write, data });
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

interface FolderNode {
  id: number;
  name: string;
  system: string | null;
  subfolders: FolderNode[];
}

async function folderIdOf(page: Page, test: (folder: FolderNode) => boolean): Promise<number> {
  const { folders } = await api<{ folders: FolderNode[] }>(page, 'GET', 'folders');
  const all = (list: FolderNode[]): FolderNode[] => list.flatMap((f) => [f, ...all(f.subfolders)]);
  const found = all(folders).find(test);
  if (!found) throw new Error('no such folder');
  return found.id;
}

/** Closes the 'Success!' notice a save raises, so it covers nothing. */
async function closeSuccess(page: Page): Promise<void> {
  await page
    .getByTestId('success-dialog')
    .getByRole('button', { name: /^(Close|Закрыть)$/ })
    .click();
}

describe('settings in the browser', () => {
  it('a signature on a new default profile follows "---" in the next new message, and the display name is its From', async () => {
    const { context, page } = await newPage(browser, desktop);
    const memberId = await signUp(page, url, 'Ann Signer');
    const address = `${memberId}@mailroom.test`;
    await page.goto(`${url}/settings/profiles`);
    await page.getByRole('link', { name: 'New profile' }).click();
    await page.waitForURL(/\/settings\/profiles\/create$/);
    await page.getByLabel('Display name').fill('Ann at Work');
    const editor = page.getByRole('textbox', { name: 'Signature' });
    await editor.click();
    await editor.pressSequentially('Best wishes, Ann');
    await page.getByRole('button', { name: 'Bold' }).click();
    await editor.pressSequentially(' (Mailroom)');
    await page.getByRole('checkbox', { name: 'Use for new messages (default profile)' }).check();
    await screenshot(page, 'profiles-edit-desktop-en');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(/\/settings\/profiles$/);
    await closeSuccess(page);
    const list = page.getByRole('list', { name: 'Profiles, the default first' });
    const first = list.getByRole('listitem').first();
    await expect(first.getAttribute('aria-label')).resolves.toBe('Ann at Work');
    await first.getByText('Default').waitFor();
    await screenshot(page, 'profiles-desktop-en');

    // The next new message starts with the signature under '---', from the new default profile.
    await page.getByRole('link', { name: 'Back to mail' }).click();
    await page.getByRole('button', { name: 'New message' }).first().click();
    const compose = page.getByTestId('compose-window');
    await compose.waitFor();
    await expect(compose.getByRole('button', { name: 'From', exact: true }).textContent()).resolves.toContain(
      `Ann at Work <${address}>`,
    );
    const body = compose.getByRole('textbox', { name: 'Message text' });
    await expect.poll(() => body.innerText()).toMatch(/---\s*\n\s*Best wishes, Ann \(Mailroom\)/);
    await compose.getByRole('combobox', { name: 'To', exact: true }).fill(address);
    await compose.getByRole('combobox', { name: 'To', exact: true }).press('Tab');
    await compose.getByLabel('Subject').fill('Signed');
    await body.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('Hello there');
    await compose.getByRole('button', { name: 'Send' }).click();
    await page.getByTestId('success-dialog').waitFor({ timeout: 30_000 });
    await closeSuccess(page);

    // As sent: the display name in From, the text, then '---', then the signature with its formatting.
    const sentId = await folderIdOf(page, (f) => f.system === 'sent');
    let sent: { uid: number }[] = [];
    await expect
      .poll(async () => {
        sent = (await api<{ messages: { uid: number }[] }>(page, 'GET', `messages/folder/${sentId}`))
          .messages;
        return sent.length;
      })
      .toBe(1);
    const { message } = await api<{
      message: { content: string; fields: { from: { name: string; email: string }[] } };
    }>(page, 'GET', `messages/${sentId}/${sent[0]!.uid}`);
    expect(message.fields.from).toEqual([{ name: 'Ann at Work', email: address }]);
    const html = Buffer.from(message.content, 'base64').toString('utf8');
    const hello = html.indexOf('Hello there');
    const dashes = html.indexOf('---');
    const signature = html.indexOf('Best wishes, Ann');
    expect(hello).toBeGreaterThanOrEqual(0);
    expect(dashes).toBeGreaterThan(hello);
    expect(signature).toBeGreaterThan(dashes);
    expect(html).toMatch(/<strong>\s*\(Mailroom\)<\/strong>/);
    await context.close();
  });

  it('conversations turned on in settings show a thread as one row', async () => {
    const { context, page } = await newPage(browser, desktop);
    const memberId = await signUp(page, url, 'Tom Threads');
    const to = `${memberId}@mailroom.test`;
    await transport.sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to,
      subject: 'Quarterly plan',
      text: 'First draft.',
      messageId: '<plan-1@example.org>',
    });
    await transport.sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to,
      subject: 'Re: Quarterly plan',
      text: 'Second draft.',
      inReplyTo: '<plan-1@example.org>',
      references: '<plan-1@example.org>',
    });
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Re: Quarterly plan/ }).waitFor({ timeout: 15_000 });
    await expect.poll(() => grid.getByRole('row', { name: /Quarterly plan/ }).count()).toBe(2);

    await page.goto(`${url}/settings/main`);
    const conversations = page.getByRole('switch', { name: /^Conversations/ });
    await expect(conversations.isChecked()).resolves.toBe(false);
    await screenshot(page, 'settings-main-desktop-en');
    // The switch follows the account's settings, which the query cache passes on a moment after the click.
    await conversations.click();
    await expect.poll(() => conversations.isChecked()).toBe(true);
    await page.getByRole('status').getByText('Saved').waitFor();
    await page.getByRole('link', { name: 'Back to mail' }).click();
    await grid.getByRole('row').first().waitFor();
    await expect.poll(() => grid.getByRole('row', { name: /Quarterly plan/ }).count()).toBe(1);
    await grid.getByRole('button', { name: /Open the chain/ }).waitFor();
    await context.close();
  });

  it('a folder is renamed and deleted from settings; a label is recoloured and the sidebar shows it', async () => {
    const { context, page } = await newPage(browser, desktop);
    await signUp(page, url, 'Fred Folders');
    await api(page, 'POST', 'folders', { folder: { parent_id: null, name: 'Projects' } });
    const { label } = await api<{ label: { id: number } }>(page, 'POST', 'labels', {
      label: { name: 'Finance', search_content: 'invoice' },
    });

    await page.goto(`${url}/settings/folders`);
    const list = page.getByRole('list', { name: 'Folders' }).last();
    await list.getByRole('listitem', { name: 'Projects' }).waitFor();
    await screenshot(page, 'folders-desktop-en');
    await page.getByRole('link', { name: 'Rename or move “Projects”' }).click();
    await page.getByLabel('Folder name').fill('Archive 2026');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/settings\/folders$/);
    await closeSuccess(page);
    await list.getByRole('listitem', { name: 'Archive 2026' }).waitFor();
    await folderItem(page, 'Archive 2026').waitFor();
    await expect(list.getByRole('listitem', { name: 'Projects' }).count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Delete “Archive 2026”' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await closeSuccess(page);
    await expect.poll(() => list.getByRole('listitem', { name: 'Archive 2026' }).count()).toBe(0);
    await expect.poll(() => folderItem(page, 'Archive 2026').count()).toBe(0);

    // A label recoloured from the palette: the sidebar's dot takes the colour.
    await page.goto(`${url}/settings/labels`);
    await page.getByRole('link', { name: 'Edit “Finance”' }).click();
    await page.waitForURL(new RegExp(`/settings/labels/edit/${label.id}$`));
    await page.getByRole('radio', { name: 'Blue' }).check();
    await screenshot(page, 'labels-edit-desktop-en');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/settings\/labels$/);
    const dot = page
      .getByRole('list', { name: 'Labels' })
      .first()
      .getByRole('link', { name: 'Finance' })
      .locator('span')
      .first();
    await expect
      .poll(() => dot.evaluate((element) => getComputedStyle(element).backgroundColor))
      .toBe('rgb(28, 126, 214)');
    await context.close();
  });

  it('settings/main, profiles and folders in both languages, on a desktop and on a phone', async () => {
    for (const [language, locale, name] of [
      ['en', 'en-US', 'Lena Looks'],
      ['ru', 'ru-RU', 'Лена Смотрит'],
    ] as const) {
      const { context, page } = await newPage(browser, desktop, locale);
      await signUp(page, url, name);
      await api(page, 'POST', 'folders', {
        folder: { parent_id: null, name: language === 'ru' ? 'Проекты' : 'Projects' },
      });
      const parent = await folderIdOf(page, (f) => f.system === null);
      await api(page, 'POST', 'folders', {
        folder: { parent_id: parent, name: language === 'ru' ? 'Клиенты' : 'Clients' },
      });
      const { profiles } = await api<{ profiles: { id: number }[] }>(page, 'POST', 'user/profiles', {
        name: language === 'ru' ? 'Лена на работе' : 'Lena at work',
        email: (await api<{ email: string }>(page, 'GET', 'user/account')).email,
        signature: '<p>—<br><em>Lena</em></p>',
      });
      expect(profiles).toHaveLength(2);
      for (const [size, viewport] of [
        ['desktop', desktop],
        ['mobile', phone],
      ] as const) {
        await page.setViewportSize(viewport);
        for (const section of ['main', 'profiles', 'folders'] as const) {
          await page.goto(`${url}/settings/${section}`);
          // The section's own heading (the sidebar has headings of its own), with its data drawn.
          await page.locator('section[aria-labelledby] h2').first().waitFor();
          if (section !== 'main') await page.locator('section[aria-labelledby] li').first().waitFor();
          await page.waitForLoadState('networkidle');
          // Nothing is wider than the screen.
          await expect(
            page.evaluate(() => document.documentElement.scrollWidth),
          ).resolves.toBeLessThanOrEqual(viewport.width);
          await screenshot(page, `settings-${section}-${size}-${language}`);
        }
      }
      await context.close();
    }
  });
});
