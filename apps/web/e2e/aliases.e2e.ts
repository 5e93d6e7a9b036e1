import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  closeSuccess,
  launchBrowser,
  newPage,
  payInSandbox,
  phoneShot as harnessPhoneShot,
  screenshot,
  sharedServer,
  signUp,
  smtpTransport,
  untilActive,
} from './_harness.js';

// Issue 16, aliases: the free alias, names the rules refuse (en and ru), a paid alias paid on the sandbox wallet's
// page, mail over SMTP to it arriving live, and password access to it used by the alias-only user of SPEC §6.

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

const desktop = { width: 1440, height: 900 };

const signUpFormal = (page: Page, name: string) => signUp(page, url, name, { passport: 'formal' });

/** The refusal shown beside the name field once `name` is typed. */
async function refusalFor(page: Page, name: string): Promise<string> {
  const field = page.getByRole('textbox', { name: /^(Alias name|Имя псевдонима)$/ });
  await field.fill(name);
  const alert = page.getByRole('alert').filter({ hasText: /\S/ });
  await alert.waitFor();
  return ((await alert.textContent()) ?? '').trim();
}

function aliasRow(page: Page, email: string) {
  return page.getByRole('listitem', { name: email });
}

const phoneShot = (
  context: BrowserContext,
  path: string,
  name: string,
  wait: (page: Page) => Promise<void>,
) => harnessPhoneShot(browser, url, context, path, name, wait);

describe('aliases in the browser', () => {
  it('the free alias, refused names in en and ru, a paid alias paid in the wallet, its mail live, and its alias-only user', async () => {
    const { context, page } = await newPage(browser, desktop);
    const memberId = await signUpFormal(page, 'Ann Aliaser');
    const tag = memberId.slice(-6);
    const domain = 'mailroom.test';

    // Names the rules refuse, each with its SPEC §8 text, as it is typed; nothing is created.
    await page.goto(`${url}/settings/aliases`);
    await page.getByRole('heading', { name: 'Aliases', level: 2 }).waitFor();
    await page.getByText('No aliases yet. Your first alias is free.').waitFor();
    await screenshot(page, 'aliases-empty-desktop-en');
    await page.getByRole('link', { name: 'New alias' }).click();
    await page.waitForURL(/\/settings\/aliases\/create$/);
    await expect(refusalFor(page, '123456789012')).resolves.toBe('You can not create a 12-digit alias');
    await expect(refusalFor(page, 'a123456789012')).resolves.toBe(
      'You can not create an alias from a letter and 12 numbers',
    );
    await expect(refusalFor(page, 'postmaster')).resolves.toBe('Cannot be created with given name');
    await expect(refusalFor(page, 'ab')).resolves.toBe('Specify from 3 to 30 characters');
    await page.getByRole('button', { name: 'Create alias' }).click();
    await screenshot(page, 'aliases-create-refused-desktop-en');
    await expect(page.url()).toMatch(/\/settings\/aliases\/create$/);

    await page.goto(`${url}/settings/aliases/create?lang=ru`);
    await page.getByRole('textbox', { name: 'Имя псевдонима' }).waitFor();
    await expect(refusalFor(page, '123456789012')).resolves.toBe('Нельзя создать псевдоним из 12 цифр');
    await expect(refusalFor(page, 'b123456789012')).resolves.toBe(
      'Нельзя создать псевдоним из буквы и 12 цифр',
    );
    await expect(refusalFor(page, 'admin')).resolves.toBe('Нельзя создать с таким именем');
    await expect(refusalFor(page, 'ab')).resolves.toBe('Укажите от 3 до 30 символов');
    await screenshot(page, 'aliases-create-refused-desktop-ru');
    await phoneShot(context, '/settings/aliases/create?lang=ru', 'aliases-create-mobile-ru', async (p) => {
      await p.getByRole('textbox', { name: 'Имя псевдонима' }).fill('123456789012');
      await p.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    });

    // The free alias.
    await page.goto(`${url}/settings/aliases/create?lang=en`);
    const free = `ann.free${tag}`;
    await page.getByRole('textbox', { name: 'Alias name' }).fill(free);
    expect(await page.getByRole('radio', { name: 'Free alias' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create alias' }).click();
    await page.waitForURL(/\/settings\/aliases$/);
    await closeSuccess(page);
    await aliasRow(page, `${free}@${domain}`).getByText('Active').waitFor();

    // A paid alias: its invoice, paid on the sandbox wallet's page, then 'I have already paid'.
    await page.getByRole('link', { name: 'New alias' }).click();
    expect(await page.getByRole('radio', { name: 'Free alias' }).isDisabled()).toBe(true);
    const paid = `ann.paid${tag}`;
    const paidEmail = `${paid}@${domain}`;
    await page.getByRole('textbox', { name: 'Alias name' }).fill(paid);
    await page.getByRole('button', { name: 'Buy alias' }).click();
    await page.waitForURL(/\/settings\/aliases$/);
    await closeSuccess(page);
    const row = aliasRow(page, paidEmail);
    await row.getByText('Awaiting payment').waitFor();
    const invoice = row.getByRole('group', { name: `Invoice for ${paidEmail}` });
    await invoice.getByText(/^1(\.0+)? \S+$/).waitFor();
    await screenshot(page, 'aliases-invoice-desktop-en');

    // Not paid yet: the wallet's answer is a message beside the alias, the page carries on.
    await row.getByRole('button', { name: 'I have already paid' }).click();
    await row
      .getByRole('status')
      .getByText("Pay the invoice in the provider's wallet application!")
      .waitFor();

    const payUrl = await invoice.getByRole('link', { name: 'Pay in the wallet' }).getAttribute('href');
    expect(payUrl).toContain('/sandbox/wallet');
    await payInSandbox(context, url, payUrl!, 'sandbox-wallet-desktop-en');

    await untilActive(row);
    await closeSuccess(page);
    await screenshot(page, 'aliases-desktop-en');
    await phoneShot(context, '/settings/aliases?lang=en', 'aliases-mobile-en', (p) =>
      p.getByRole('listitem', { name: paidEmail }).getByText('Active').waitFor(),
    );
    await phoneShot(context, '/settings/aliases?lang=ru', 'aliases-mobile-ru', (p) =>
      p.getByRole('listitem', { name: paidEmail }).getByText('Активен').waitFor(),
    );
    await page.goto(`${url}/settings/aliases?lang=ru`);
    await aliasRow(page, paidEmail).getByText('Активен').waitFor();
    await screenshot(page, 'aliases-desktop-ru');
    await page.goto(`${url}/settings/aliases?lang=en`);

    // Password access to the paid alias, typed twice.
    const paidRow = aliasRow(page, paidEmail);
    await paidRow.getByRole('button', { name: `Password access for ${paidEmail}` }).click();
    const form = paidRow.getByRole('form', { name: `Password access for ${paidEmail}` });
    await form.getByLabel('New password').fill('alias desk password');
    await form.getByLabel('Repeat the password').fill('alias desk passwort');
    await form.getByRole('button', { name: 'Set password' }).click();
    await form.getByRole('alert').getByText('The passwords do not match').waitFor();
    await form.getByLabel('Repeat the password').fill('alias desk password');
    await form.getByRole('button', { name: 'Set password' }).click();
    await paidRow.getByText('Paid alias · password sign-in on').waitFor();
    await closeSuccess(page);

    // Mail to the paid alias over SMTP arrives live in the Inbox; the alias is in the sidebar without a reload.
    await page.getByRole('link', { name: 'Back to mail' }).click();
    await page.waitForURL(/\/mail\//);
    // slim_list_aliases is off by default: every address is in view in the sidebar.
    await page.getByRole('list', { name: 'Address' }).getByRole('button', { name: paidEmail }).waitFor();
    const subject = `For the paid alias ${tag}`;
    const info = await transport.sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to: paidEmail,
      subject,
      text: 'Hello, alias.',
    });
    expect(info.accepted).toEqual([paidEmail]);
    await page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: new RegExp(subject) })
      .waitFor({ timeout: 15_000 });
    await screenshot(page, 'aliases-mail-arrived-desktop-en');

    // The alias-only user: signs in with the alias and its password in a browser of their own.
    const other = await newPage(browser, desktop);
    await other.page.goto(`${url}/login`);
    await other.page.getByText('Sign in to an address with a password').click();
    await other.page.getByLabel('Address').fill(paidEmail);
    await other.page.getByLabel('Password', { exact: true }).fill('alias desk password');
    await other.page.getByRole('button', { name: 'Sign in with password' }).click();
    await other.page.waitForURL(/\/mail\//);
    const aliasPage = other.page;
    await aliasPage
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: new RegExp(subject) })
      .waitFor({ timeout: 15_000 });
    // SPEC §6: no labels, no folder or label creation, the address selector locked, no member ID.
    expect(await aliasPage.getByRole('heading', { name: 'Labels' }).count()).toBe(0);
    expect(await aliasPage.getByRole('button', { name: 'Create folder' }).count()).toBe(0);
    expect(await aliasPage.getByRole('button', { name: 'Create label' }).count()).toBe(0);
    expect(await aliasPage.getByRole('button', { name: 'Address' }).isDisabled()).toBe(true);
    expect(await aliasPage.getByText(memberId).count()).toBe(0);
    // No contacts or settings in the dots menu.
    await aliasPage.getByRole('button', { name: 'More actions' }).click();
    const menu = aliasPage.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'About Mailroom' }).waitFor();
    expect(await menu.getByRole('menuitem', { name: 'Contacts' }).count()).toBe(0);
    expect(await menu.getByRole('menuitem', { name: 'Settings' }).count()).toBe(0);
    await aliasPage.keyboard.press('Escape');
    await screenshot(aliasPage, 'alias-only-desktop-en');
    // Kept out of settings and contacts.
    for (const path of ['/settings/aliases', '/contacts']) {
      await aliasPage.goto(`${url}${path}`);
      await aliasPage.waitForURL(/\/mail\//);
    }
    await phoneShot(other.context, '/mail?lang=ru', 'alias-only-mobile-ru', (p) =>
      p
        .getByRole('grid', { name: 'Письма' })
        .getByRole('row', { name: new RegExp(subject) })
        .waitFor(),
    );
    await other.context.close();
    await context.close();
  }, 120_000);
});
