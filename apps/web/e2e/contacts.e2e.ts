import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp, smtpTransport } from './_harness.js';
import { repoRoot } from './_processes.js';

const { url, smtpPort } = sharedServer();
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

/** The server engineer's fixtures: Apple's vCard 3.0 (groups by CATEGORIES and a group card), Outlook's 2.1. */
const fixtures = path.join(repoRoot, 'test-support/fixtures/contacts');
const vcard30 = path.join(fixtures, 'vcard-3.0.vcf');
const outlook21 = path.join(fixtures, 'outlook-2.1-windows-1251.vcf');

/** Imports a file through the dialog and reads the counts it reports ('Added' → '4', …). */
async function importFile(page: Page, file: string): Promise<Record<string, string>> {
  await page.getByRole('button', { name: /^(Import|Импорт)$/ }).click();
  const dialog = page.getByRole('dialog', { name: /^(Import contacts|Импорт контактов)$/ });
  await dialog.locator('input[type="file"]').setInputFiles(file);
  // The import runs as a job: a progress line (also a status) comes first, then the result with its counts.
  const result = dialog.getByRole('status', { name: /^(Import result|Итог импорта)$/ });
  await result.waitFor({ timeout: 30_000 });
  const counts: Record<string, string> = {};
  for (const row of await result.locator('dl > div').all()) {
    counts[(await row.locator('dt').textContent())!] = (await row.locator('dd').textContent())!;
  }
  return counts;
}

async function closeDialog(page: Page): Promise<void> {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^(Close|Закрыть)$/ })
    .last()
    .click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

/** Waits for the page's animations (a dialog sliding in) to end, so a screenshot shows where things settle. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

/** A row's name: the first line of the block beside the avatar (CSS Modules' class names are numbered in a build). */
const NAME = 'li > * > span:first-child';

/** The names the list shows, in its order. */
async function listedNames(page: Page, list: string): Promise<string[]> {
  return page.getByRole('list', { name: list, exact: true }).locator(NAME).allTextContents();
}

describe('contacts in the browser', () => {
  it('imports vCard 3.0 with groups and Outlook 2.1 in windows-1251, writes to a group, autocompletes a surname, and the same import again adds nothing', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Cora Contacts');

    // From the mail shell to /contacts: nothing there yet.
    await page.goto(`${url}/contacts`);
    await page.getByRole('heading', { name: 'No contacts yet' }).waitFor();

    // Apple's vCard 3.0: four people and three groups (two by CATEGORIES, one a group card).
    expect(await importFile(page, vcard30)).toEqual({
      Added: '4',
      Completed: '0',
      'Already there': '0',
      'Groups added': '3',
      'Left out': '0',
    });
    await settled(page);
    await screenshot(page, 'contacts-import-desktop-en');
    await closeDialog(page);
    // Outlook's vCard 2.1, quoted-printable windows-1251: two people, one in the group "Коллеги".
    const outlook = await importFile(page, outlook21);
    expect(outlook.Added).toBe('2');
    expect(outlook['Groups added']).toBe('1');
    await closeDialog(page);

    // All six, the Cyrillic names read right (the order is the server's: by surname, then name).
    await expect
      .poll(async () => (await listedNames(page, 'Contacts')).sort())
      .toEqual(
        [
          'Мария Иванова',
          'Елена Кузьмина',
          'Chen Lee',
          'Anna Petrova',
          'Алексей Сидоров',
          'Boris Smirnov',
        ].sort(),
      );
    await page.getByText('1–6 of 6').waitFor();
    await screenshot(page, 'contacts-list-desktop-en');

    // Search as you type.
    await page.getByRole('searchbox', { name: 'Search contacts' }).pressSequentially('кузь', { delay: 30 });
    await expect.poll(() => listedNames(page, 'Contacts')).toEqual(['Елена Кузьмина']);
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await expect.poll(() => listedNames(page, 'Contacts')).toHaveLength(6);

    // The contact opens in the side panel with what the 2.1 file held.
    await page.getByRole('button', { name: 'Open Алексей Сидоров' }).click();
    const sheet = page.getByRole('dialog', { name: 'Edit contact' });
    await expect(sheet.getByLabel('Surname').inputValue()).resolves.toBe('Сидоров');
    await expect(sheet.getByLabel('Email address 1', { exact: true }).inputValue()).resolves.toBe(
      'a.sidorov@example.ru',
    );
    await expect(sheet.getByLabel('Email address 2', { exact: true }).inputValue()).resolves.toBe(
      'alexey.sidorov@mail.example',
    );
    await expect(sheet.getByLabel('Date of birth').inputValue()).resolves.toBe('1978-09-23');
    await expect(sheet.getByLabel('Notes').inputValue()).resolves.toMatch(/^Звонить после обеда\./);
    await settled(page);
    await screenshot(page, 'contacts-editor-desktop-en');
    await sheet.getByRole('button', { name: 'Cancel' }).click();

    // The groups with their sizes; one opened shows its members.
    await page.getByRole('tab', { name: 'Groups' }).click();
    const groups = page.getByRole('list', { name: 'Groups', exact: true });
    await groups.getByRole('link', { name: /^Book club/ }).waitFor();
    const groupRows = await groups
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.textContent));
    expect(groupRows.sort()).toEqual(
      ['Book clubContacts: 2', 'ColleaguesContacts: 2', 'FamilyContacts: 1', 'КоллегиContacts: 1'].sort(),
    );
    await screenshot(page, 'contacts-groups-desktop-en');
    await groups.getByRole('link', { name: /^Book club/ }).click();
    await expect
      .poll(() => listedNames(page, 'Contacts in Book club'))
      .toEqual(['Anna Petrova', 'Boris Smirnov']);
    await screenshot(page, 'contacts-group-desktop-en');

    // Write to the group: compose opens over the mail with its members.
    await page.getByRole('button', { name: 'Write to group' }).click();
    const compose = page.getByTestId('compose-window');
    await compose.waitFor({ timeout: 15_000 });
    const to = compose.getByRole('list', { name: 'To' });
    await to.getByText('Anna Petrova').waitFor();
    expect(
      await to.getByRole('listitem').evaluateAll((items) => items.map((li) => li.getAttribute('title'))),
    ).toEqual(['anna.petrova@example.com', 'boris.smirnov@example.org']);
    await screenshot(page, 'contacts-write-to-group-desktop-en');
    await compose.getByRole('button', { name: /^Close/ }).click();
    await compose.waitFor({ state: 'detached' });

    // Compose autocompletes a contact from two letters of the surname.
    await page.getByRole('button', { name: 'New message' }).first().click();
    await compose.waitFor();
    const field = compose.getByRole('combobox', { name: 'To', exact: true });
    await field.pressSequentially('Си', { delay: 40 });
    const suggestions = compose.getByRole('listbox', { name: 'Suggestions' });
    const option = suggestions.getByRole('option', { name: /^Алексей Сидоров\s*a\.sidorov@example\.ru/ });
    await option.waitFor();
    await expect(field.getAttribute('aria-expanded')).resolves.toBe('true');
    await screenshot(page, 'contacts-autocomplete-desktop-en');
    await option.click();
    const tag = compose.getByRole('list', { name: 'To' }).getByRole('listitem');
    await expect.poll(() => tag.allTextContents()).toEqual(['Алексей Сидоров']);
    await expect(tag.getAttribute('title')).resolves.toBe('a.sidorov@example.ru');
    await expect(suggestions.count()).resolves.toBe(0);
    await compose.getByRole('button', { name: /^Close/ }).click();

    // The same files again add nothing.
    await page.goto(`${url}/contacts`);
    await page.getByRole('list', { name: 'Contacts', exact: true }).waitFor();
    const again = await importFile(page, vcard30);
    expect(again.Added).toBe('0');
    expect(again['Groups added']).toBe('0');
    await closeDialog(page);
    expect((await importFile(page, outlook21)).Added).toBe('0');
    await closeDialog(page);
    await page.getByText('1–6 of 6').waitFor();

    // A contact added elsewhere (another tab, here the API with the same session) appears without a reload.
    const created = await page.request.post(`${url}/api/v1/contacts`, {
      headers: { 'x-mailroom-csrf': '1', origin: url },
      data: { name: 'Zoe', surname: 'Live', emails: ['zoe.live@example.org'] },
    });
    expect(created.ok()).toBe(true);
    await page.getByRole('button', { name: 'Open Zoe Live' }).waitFor({ timeout: 15_000 });
    await page.getByText('1–7 of 7').waitFor();

    // The reader offers to add a sender who is not a contact, and then shows that it is one.
    await transport.sendMail({
      from: 'Pavel Orlov <pavel.orlov@example.net>',
      to: `${memberId}@mailroom.test`,
      subject: 'Hello from Pavel',
      text: 'Hi!',
    });
    await page.goto(`${url}/mail`);
    await page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /Hello from Pavel/ })
      .click({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Add Pavel Orlov to contacts' }).click();
    await page.getByText('In contacts').waitFor();
    await screenshot(page, 'contacts-reader-sender-desktop-en');
    await page.goto(`${url}/contacts`);
    await page.getByRole('button', { name: 'Open Pavel Orlov' }).waitFor();

    // The screens in both languages, on a desktop and on a phone.
    for (const [language, size] of [
      ['en', { width: 390, height: 844 }],
      ['ru', { width: 390, height: 844 }],
      ['ru', { width: 1440, height: 900 }],
    ] as const) {
      const device = size.width < 768 ? 'phone' : 'desktop';
      await page.setViewportSize(size);
      await page.goto(`${url}/contacts?lang=${language}`);
      await page
        .getByRole('list', { name: /^(Contacts|Контакты)$/ })
        .locator(NAME)
        .first()
        .waitFor();
      await screenshot(page, `contacts-list-${device}-${language}`);
      await page.goto(`${url}/contacts?tab=groups&lang=${language}`);
      await page
        .getByRole('list', { name: /^(Groups|Группы)$/ })
        .locator(NAME)
        .first()
        .waitFor();
      await screenshot(page, `contacts-groups-${device}-${language}`);
    }
    // Russian texts through ?lang=, and the side panel on a phone.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${url}/contacts?lang=ru`);
    await page.getByRole('tab', { name: 'Группы' }).waitFor();
    await page.getByRole('button', { name: 'Открыть Елена Кузьмина' }).click();
    await page.getByRole('dialog', { name: 'Изменение контакта' }).waitFor();
    await settled(page);
    await screenshot(page, 'contacts-editor-phone-ru');
    await context.close();
  });
});
