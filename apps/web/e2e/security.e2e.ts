import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

const write = { 'x-mailroom-csrf': '1', origin: url };
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/**
 * The confirmation code the sandbox wallet's page shows as the newest 'code' notice of the signed-in member (the
 * wallet application's stand-in, /sandbox/wallet).
 */
async function codeFromSandboxWallet(page: Page): Promise<string> {
  const wallet = await page.context().newPage();
  try {
    let code: string | undefined;
    await expect
      .poll(
        async () => {
          await wallet.goto(`${url}/sandbox/wallet`);
          const text = await wallet
            .locator('li[data-kind="code"] .notice-text')
            .first()
            .textContent({ timeout: 1_000 })
            .catch(() => null);
          code = text?.match(/\b(\d{6})\b/)?.[1];
          return code;
        },
        { timeout: 15_000 },
      )
      .toMatch(/^\d{6}$/);
    return code!;
  } finally {
    await wallet.close();
  }
}

/** Waits for the page's animations (a dialog sliding in) to end, so a screenshot shows where things settle. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

/** The rows of the sign-in log as the screen shows them: method, result, IP, browser, who. */
async function logRows(page: Page): Promise<string[][]> {
  const rows = page.getByRole('table', { name: /^(Sign-in log|Журнал входов)$/ }).locator('tbody tr');
  const result: string[][] = [];
  for (const row of await rows.all()) result.push((await row.locator('td').allTextContents()).slice(1));
  return result;
}

/** Nothing is wider than the screen. */
async function fitsTheScreen(page: Page, width: number): Promise<void> {
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(width);
}

describe('the account’s security in the browser', () => {
  it('a mailbox password set with a code from the wallet signs in in another browser, and the sign-in log shows both sign-ins', async () => {
    const { context, page } = await newPage(browser, desktop);
    const memberId = await signUp(page, url, 'Ann Secure');
    const address = `${memberId}@mailroom.test`;

    await page.goto(`${url}/settings/access`);
    await page.getByRole('heading', { name: 'Mailbox password' }).waitFor();
    await page.getByText(`${address} has no password yet`).waitFor();
    await page.getByRole('button', { name: 'Send code' }).click();
    // How long the code holds, and when a new one may be asked for.
    await page.getByText(/valid for 10 minutes/).waitFor();
    await page.getByText(/A new code in \d+ s\./).waitFor();
    await expect(page.getByRole('button', { name: 'Send a new code' }).isDisabled()).resolves.toBe(true);
    const code = await codeFromSandboxWallet(page);

    // Two different passwords are refused before anything is sent.
    await page.getByLabel('Code', { exact: true }).fill(code);
    await page.getByLabel('New password', { exact: true }).fill('correct horse battery');
    await page.getByLabel('New password again').fill('correct horse batery');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText('The passwords do not match').waitFor();
    await screenshot(page, 'security-password-desktop-en');

    await page.getByLabel('New password again').fill('correct horse battery');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByText(`${address} has a password`).waitFor();

    // A second browser signs in with the address and the password.
    const other = await newPage(browser, desktop);
    const signIn = await other.context.request.post(`${url}/auth/pw/login`, {
      headers: write,
      data: { email: address, password: 'correct horse battery' },
    });
    expect(signIn.status()).toBe(200);
    await other.page.goto(`${url}/mail`);
    await other.page.getByRole('tree', { name: 'Folders' }).waitFor();
    // A wrong password is a failed attempt in the log.
    const wrong = await other.context.request.post(`${url}/auth/pw/login`, {
      headers: write,
      data: { email: address, password: 'not the password' },
    });
    expect(wrong.status()).toBeGreaterThanOrEqual(400);
    await other.context.close();

    // Both sign-ins (single sign-on at sign-up, then the password) and the failed attempt, newest first.
    await page.reload();
    await page.getByRole('table', { name: 'Sign-in log' }).waitFor();
    const rows = await logRows(page);
    expect(rows.map(([method, result]) => `${method} ${result}`)).toEqual(
      expect.arrayContaining(['Password Failed', 'Password Succeeded', 'Single sign-on Succeeded']),
    );
    const password = rows.find(([method, result]) => method === 'Password' && result === 'Succeeded')!;
    expect(password[2]).toMatch(/^127\.0\.0\.1$|^::1$|^::ffff:127\.0\.0\.1$/);
    expect(password[4]).toBe(address);
    expect(rows.findIndex((row) => row[0] === 'Password')).toBeLessThan(
      rows.findIndex((row) => row[0] === 'Single sign-on'),
    );
    await page.getByRole('heading', { name: 'Sign-in log' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'security-log-desktop-en');
    await context.close();
  });

  it('member B opens A’s mailbox from the account menu once A grants it, and loses it when A revokes', async () => {
    const owner = await newPage(browser, desktop);
    const ownerId = await signUp(owner.page, url, 'Ann Owner');
    const delegate = await newPage(browser, desktop);
    const delegateId = await signUp(delegate.page, url, 'Bob Delegate');
    const ownerAddress = `${ownerId}@mailroom.test`;
    await transport.sendMail({
      from: 'Bank <bank@example.test>',
      to: ownerAddress,
      subject: 'Statement for Ann',
      text: 'Only for the owner and whom she trusts.',
    });

    // Nothing shared with B yet.
    await delegate.page.getByRole('button', { name: 'Account menu' }).click();
    await delegate.page.getByRole('menu').getByText('Mailboxes shared with me').waitFor();
    await delegate.page.getByRole('menuitem', { name: 'None yet' }).waitFor();
    await delegate.page.keyboard.press('Escape');

    // A grants B: the ID is checked as it is typed.
    await owner.page.goto(`${url}/settings/access`);
    await owner.page.getByRole('heading', { name: 'Impersonation' }).waitFor();
    const memberField = owner.page.getByLabel('Member ID');
    await memberField.fill('12345x');
    await owner.page.getByText('Invalid member ID', { exact: true }).waitFor();
    await memberField.fill(ownerId);
    await owner.page.getByRole('button', { name: 'Grant access' }).click();
    await owner.page.getByText('Invalid member ID specified.').waitFor();
    await memberField.fill(delegateId);
    await owner.page.getByRole('button', { name: 'Grant access' }).click();
    await owner.page
      .getByRole('list', { name: 'Members who can open your mailbox' })
      .getByText(delegateId)
      .waitFor();
    await screenshot(owner.page, 'security-impersonation-desktop-en');

    // B finds A's mailbox in the account menu (read when the menu opens) and switches into it.
    await delegate.page.getByRole('button', { name: 'Account menu' }).click();
    const open = delegate.page.getByRole('menuitem', { name: /^Open the mailbox of / });
    await open.waitFor();
    await settled(delegate.page);
    await screenshot(delegate.page, 'security-shared-menu-desktop-en');
    await open.click();
    const bar = delegate.page.getByTestId('impersonation-bar');
    await bar.waitFor();
    await expect(bar.textContent()).resolves.toContain(ownerAddress);
    await delegate.page.getByRole('row', { name: /Statement for Ann/ }).waitFor();
    // The owner's security, bank accounts and support are not offered to a delegate.
    await delegate.page.goto(`${url}/settings/main`);
    const nav = delegate.page.getByRole('navigation', { name: 'Settings sections' });
    await nav.getByRole('link', { name: 'General' }).waitFor();
    await expect(nav.getByRole('link', { name: 'Security' }).count()).resolves.toBe(0);
    await expect(nav.getByRole('link', { name: 'Support' }).count()).resolves.toBe(0);
    await delegate.page.goto(`${url}/mail`);
    await bar.waitFor();
    await delegate.page.getByRole('row', { name: /Statement for Ann/ }).waitFor();
    await screenshot(delegate.page, 'security-impersonating-desktop-en');
    await delegate.page.setViewportSize(phone);
    await fitsTheScreen(delegate.page, phone.width);
    await screenshot(delegate.page, 'security-impersonating-mobile-en');
    await delegate.page.setViewportSize(desktop);

    // Both sign-in logs have the switch.
    await owner.page.reload();
    await owner.page.getByRole('table', { name: 'Sign-in log' }).waitFor();
    await expect
      .poll(async () =>
        (await logRows(owner.page)).some(
          ([m, , , , who]) => m === 'Impersonation' && who!.includes(delegateId),
        ),
      )
      .toBe(true);

    // A revokes: B's session in A's mailbox ends at once, and B's page finds out on its own.
    await owner.page.getByRole('button', { name: `Revoke access of ${delegateId}` }).click();
    const dialog = owner.page.getByRole('alertdialog');
    await dialog.getByText(/their open sessions in your mailbox end now/).waitFor();
    await settled(owner.page);
    await screenshot(owner.page, 'security-revoke-desktop-en');
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await owner.page.getByText('Nobody can open your mailbox but you.').waitFor();
    const access = await delegate.page.request.get(`${url}/auth/access`);
    expect(access.status()).toBe(401);
    await delegate.page.waitForURL(/\/login/, { timeout: 45_000 });
    await owner.context.close();
    await delegate.context.close();
  });

  it('settings/access, ba and support in both languages, on a desktop and on a phone', async () => {
    for (const [language, locale, name] of [
      ['en', 'en-US', 'Vera Views'],
      ['ru', 'ru-RU', 'Вера Смотрит'],
    ] as const) {
      const { context, page } = await newPage(browser, desktop, locale);
      await signUp(page, url, name);
      for (const [size, viewport] of [
        ['desktop', desktop],
        ['mobile', phone],
      ] as const) {
        await page.setViewportSize(viewport);
        for (const section of ['access', 'ba', 'support'] as const) {
          await page.goto(`${url}/settings/${section}`);
          await page.locator('section[aria-labelledby] h2').first().waitFor();
          if (section === 'access') await page.locator('table tbody tr').first().waitFor();
          if (section === 'ba')
            await page
              .getByText(/•••• \d{4}/)
              .first()
              .waitFor();
          if (section === 'support') {
            await page.getByRole('checkbox').check();
            await page.locator('dl dd').nth(4).waitFor();
          }
          await page.waitForLoadState('networkidle');
          await fitsTheScreen(page, viewport.width);
          await screenshot(page, `settings-${section}-${size}-${language}`);
        }
      }
      await context.close();
    }
  });
});
