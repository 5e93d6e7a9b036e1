import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer } from './_harness.js';

const { url, dataDir } = sharedServer();
const browser = await launchBrowser();

const systemFolders = {
  en: ['Inbox', 'Sent', 'Drafts', 'Trash', 'Junk'],
  ru: ['Входящие', 'Отправленные', 'Черновики', 'Корзина', 'Спам'],
};

async function folderNames(page: Page): Promise<string[]> {
  const tree = page.getByRole('tree').first();
  await tree.getByRole('treeitem').first().waitFor();
  return tree
    .getByRole('treeitem')
    .evaluateAll((items) =>
      items.map((item) => (item.getAttribute('aria-label') ?? item.textContent ?? '').trim()),
    );
}

async function expectSystemFolders(page: Page, lang: 'en' | 'ru') {
  await expect
    .poll(
      async () => {
        const names = await folderNames(page);
        return systemFolders[lang].every((folder, i) => names[i]?.startsWith(folder));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

describe('a newcomer signs up, signs in and sees the mail shell', () => {
  it('sign up at the identity provider, land on /mail with the system folders, switch language, log out', async () => {
    const { context, page } = await newPage(browser);

    await page.goto(`${url}/login`);
    await page
      .getByRole('button', { name: /sign in/i })
      .or(page.getByRole('link', { name: /sign in/i }))
      .first()
      .click();

    // The embedded identity provider: sign-in form with memberId/password, and a sign-up link.
    await page.locator('input[name="memberId"]').waitFor();
    await expect(page.locator('input[name="password"]').count()).resolves.toBe(1);
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByLabel('Name').fill('Ann Lee');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const memberId = (await page.getByTestId('new-member-id').textContent())!.trim();
    expect(memberId).toMatch(/^\d{12}$/);
    await page.getByRole('link', { name: 'Continue' }).click();

    await page.waitForURL(/\/mail(\/|$)/);
    await expectSystemFolders(page, 'en');
    await expect(page.getByText(memberId).count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'shell-desktop-en');

    await page.getByRole('button', { name: 'Русский' }).click();
    await expectSystemFolders(page, 'ru');
    await screenshot(page, 'shell-desktop-ru');

    // The language is remembered: a reload stays in Russian.
    await page.reload();
    await expectSystemFolders(page, 'ru');

    const mobile = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await context.storageState(),
    });
    const mobilePage = await mobile.newPage();
    await mobilePage.goto(`${url}/mail`);
    await mobilePage.waitForURL(/\/mail\/folder\//);
    // The list has loaded (its empty state), not its skeleton rows.
    await mobilePage.getByText('Здесь пусто').waitFor();
    await screenshot(mobilePage, 'shell-mobile-ru');
    await mobilePage.goto(`${url}/mail?lang=en`);
    await mobilePage.waitForURL(/\/mail\/folder\//);
    await mobilePage.getByText('Nothing here').waitFor();
    await screenshot(mobilePage, 'shell-mobile-en');
    await mobile.close();

    await page.getByRole('button', { name: 'English' }).click();
    await expectSystemFolders(page, 'en');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    const access = await page.request.get(`${url}/auth/access`);
    expect(access.status()).toBe(401);
    await context.close();
  });

  it('a user added with the CLI while the server runs signs in with member ID and password and lands on the deep link', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '--silent',
        'mailroom',
        '--',
        'user',
        'add',
        '--name',
        'Bo Chen',
        '--password',
        'secret-pw',
        '--member-id',
        '123456789012',
      ],
      { cwd: new URL('../../../', import.meta.url).pathname, env: { ...process.env, DATA_DIR: dataDir } },
    );
    expect(stdout).toContain('123456789012@mailroom.test');

    const { context, page } = await newPage(browser);
    await page.goto(`${url}/auth/wm/login?redirect=${encodeURIComponent('/settings/main')}`);
    await page.locator('input[name="memberId"]').fill('123456789012');
    await page.locator('input[name="password"]').fill('secret-pw');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/settings\/main/);
    await page.goto(`${url}/mail`);
    await expectSystemFolders(page, 'en');
    await context.close();
  });

  it('a refused sign-in comes back to the login page with the reason, in the chosen language', async () => {
    const { context, page } = await newPage(browser);
    await page.goto(`${url}/login?noredirect=true&error=invalid_member_id`);
    await expect(page.getByTestId('sign-in-error').textContent()).resolves.toContain('Invalid member ID');
    await screenshot(page, 'login-error-en');
    await page.goto(`${url}/login?noredirect=true&error=invalid_member_id&lang=ru`);
    await expect
      .poll(() => page.getByTestId('sign-in-error').textContent(), { timeout: 10_000 })
      .toMatch(/[А-Яа-я]/);
    await context.close();
  });
});
