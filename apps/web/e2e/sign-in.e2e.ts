import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp, smtpTransport } from './_harness.js';

// The operator CLI asks the running server over its admin socket: a cluster's first node's (_cluster.ts).
const { url, dataDir, adminDataDir, smtpPort } = sharedServer();
const browser = await launchBrowser();

const systemFolders = {
  en: ['Inbox', 'Sent', 'Drafts', 'Scheduled', 'Snoozed', 'Trash', 'Junk'],
  ru: ['Входящие', 'Отправленные', 'Черновики', 'Запланированные', 'Отложенные', 'Корзина', 'Спам'],
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
      {
        cwd: new URL('../../../', import.meta.url).pathname,
        env: { ...process.env, DATA_DIR: adminDataDir ?? dataDir },
      },
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
    // A broken flow (expired, cookies refused, another address) says what to do about it.
    await page.goto(`${url}/login?noredirect=true&error=auth_error`);
    await expect(page.getByTestId('sign-in-help').textContent()).resolves.toContain('usual address');
    await screenshot(page, 'login-auth-error-en');
    await context.close();
  });
});

/** The embedded provider's sign-in form: member ID and password, then Sign in (in the page's language). */
async function signInAtProvider(page: Page, memberId: string, button: RegExp = /^Sign in$/) {
  await page.locator('input[name="memberId"]').fill(memberId);
  await page.locator('input[name="password"]').fill('correct horse');
  await page.getByRole('button', { name: button }).click();
}

const transport = smtpTransport(smtpPort);

describe('signing out, switching accounts, deep links and another address', () => {
  it('log out ends the provider session too, and a deep link opened signed out survives the sign-in', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Dee Link');
    await transport.sendMail({
      from: '"Ona Sender" <ona@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'The deep-linked message',
      text: 'Open me from a link.',
    });
    const row = page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /deep-linked message/ });
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    await page.waitForURL(/\/mail\/folder\/all\/\d+\/\d+\/\d+$/);
    const deepLink = new URL(page.url()).pathname;

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/\/login\?noredirect=true$/);
    expect((await page.request.get(`${url}/auth/access`)).status()).toBe(401);

    // Sign in again: the provider asks for the password, it does not let the next person straight in.
    await page.getByTestId('sign-in').click();
    await page.locator('input[name="password"]').waitFor();
    expect(page.url()).toContain('/idp/interaction/');

    // Signed out, the deep link is opened: after signing in, the message itself is on screen.
    await page.goto(`${url}${deepLink}`);
    await page.waitForURL(/\/(about|login)/);
    await page
      .getByRole('link', { name: /^Sign in$/ })
      .first()
      .click();
    await signInAtProvider(page, memberId);
    await page.waitForURL(`${url}${deepLink}`);
    await page
      .getByRole('region', { name: 'Message' })
      .getByText('The deep-linked message')
      .first()
      .waitFor();
    await context.close();
  });

  it('changing one\'s mind after "Log in with another member ID": Sign in asks for the password again', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Mia Mind');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log in with another member ID' }).click();
    await page.locator('input[name="password"]').waitFor();
    // Not another member after all: back to the app's login page, and Sign in.
    await page.goto(`${url}/login?noredirect=true`);
    expect((await page.request.get(`${url}/auth/access`)).status()).toBe(401);
    await page.getByTestId('sign-in').click();
    // The provider's session ended with ours: it asks who it is, it does not let the next person straight in.
    await page.waitForURL(/\/idp\/interaction\//);
    await page.locator('input[name="password"]').waitFor();
    await screenshot(page, 'idp-sign-in-after-sign-out-desktop-en');
    expect(page.url()).not.toContain('/mail');
    await context.close();
  });

  it('"Log in with another member ID" switches accounts, in English and in Russian', async () => {
    const other = await newPage(browser);
    const otherId = await signUp(other.page, url, 'Ola Other');
    await other.context.close();

    const { context, page } = await newPage(browser);
    const firstId = await signUp(page, url, 'Fay First');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log in with another member ID' }).click();
    await signInAtProvider(page, otherId);
    await page.waitForURL(/\/mail(\/|$)/);
    await expect.poll(() => page.getByText(otherId).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(await page.getByText(firstId).count()).toBe(0);

    await page.getByRole('button', { name: 'Русский' }).click();
    await page.getByRole('button', { name: 'Меню аккаунта' }).click();
    await page.getByRole('menuitem', { name: /Войти с другим/ }).click();
    // The provider's form speaks Russian too.
    await page.getByText('Пароль', { exact: true }).waitFor();
    await signInAtProvider(page, firstId, /^Войти$/);
    await page.waitForURL(/\/mail(\/|$)/);
    await expect.poll(() => page.getByText(firstId).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Что-то пошло не так' }).count()).resolves.toBe(0);
    await context.close();
  });

  it('the app opened at 127.0.0.1 instead of PUBLIC_URL (localhost) goes to localhost first, and sign-in works', async () => {
    const { context, page } = await newPage(browser);
    const port = new URL(url).port;
    await page.goto(`http://127.0.0.1:${port}/mail`);
    await page.waitForURL(/\/about/);
    expect(new URL(page.url()).host).toBe(`localhost:${port}`);
    await page
      .getByRole('link', { name: /^Sign in$/ })
      .first()
      .click();
    await page.getByRole('link', { name: 'Create one' }).click();
    await page.getByLabel('Name').fill('Ip Visitor');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL(/\/mail\/folder\//);
    expect(new URL(page.url()).host).toBe(`localhost:${port}`);
    await expect(page.getByTestId('sign-in-error').count()).resolves.toBe(0);
    await context.close();
  });

  it("the provider's sign-in and sign-up pages follow the app's Russian, and sign-up offers to copy the member ID", async () => {
    for (const [name, viewport] of [
      ['desktop', { width: 1440, height: 900 }],
      ['mobile', { width: 390, height: 844 }],
    ] as const) {
      const { context, page } = await newPage(browser, viewport);
      await page.goto(`${url}/login?lang=ru`);
      await page.getByTestId('sign-in').click();
      await page.getByRole('heading', { name: 'Вход' }).waitFor();
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ru');
      await expect(page.getByLabel('Пароль').count()).resolves.toBe(1);
      await expect(page.getByText('Password').count()).resolves.toBe(0);
      await screenshot(page, `idp-sign-in-${name}-ru`);

      await page.getByRole('link', { name: 'Создать' }).click();
      await page.getByLabel('Имя').fill('Ива Петрова');
      await page.getByLabel('Пароль').fill('correct horse');
      await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
      const memberId = (await page.getByTestId('new-member-id').textContent())!.trim();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
      // The button says "Скопировано" for a moment after the copy: every label it shows is recorded, so a busy
      // machine that looks later than that moment still sees it.
      const copy = page.getByRole('button', { name: 'Скопировать ID участника' });
      await copy.evaluate((button) => {
        const shown: string[] = [];
        (window as unknown as { shownLabels: string[] }).shownLabels = shown;
        new MutationObserver(() => shown.push(button.textContent ?? '')).observe(button, {
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
      await copy.click();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { shownLabels: string[] }).shownLabels))
        .toContain('Скопировано');
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(memberId);
      await screenshot(page, `idp-signed-up-${name}-ru`);
      await page.getByRole('link', { name: 'Продолжить' }).click();
      await page.waitForURL(/\/mail\/folder\//);
      await context.close();
    }
  });
});

describe('the language follows the member', () => {
  it(
    'Russian saved in one browser is the language after signing in from another with an English cookie',
    { timeout: 240_000 },
    async () => {
      const first = await newPage(browser);
      const memberId = await signUp(first.page, url, 'Vera Lang');
      await first.page.goto(`${url}/settings/main`);
      await first.page.getByRole('combobox', { name: /^Language/ }).selectOption('ru');
      await expect
        .poll(
          async () =>
            (await (await first.page.request.get(`${url}/api/v1/user/settings`)).json()).settings.language,
        )
        .toBe('ru');
      await first.context.close();

      // The phone layout keeps the folder tree in a drawer: the desktop's sidebar shows the language.
      const { context, page } = await newPage(browser);
      await context.addCookies([{ name: 'lang', value: 'en', url }]);
      await page.goto(`${url}/login?noredirect=true`);
      await page.getByTestId('sign-in').click();
      await signInAtProvider(page, memberId);
      await page.waitForURL(/\/mail(\/|$)/);
      await expectSystemFolders(page, 'ru');
      await screenshot(page, 'language-follows-member-desktop-ru');
      await context.close();
    },
  );
});
