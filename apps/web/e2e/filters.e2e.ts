import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  deliverMany,
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
interface ListedMail {
  subject: string;
  flags: { seen: boolean };
  labels: number[];
}

async function folderId(page: Page, name: string): Promise<number> {
  const { folders } = await api<{ folders: FolderNode[] }>(page, 'GET', 'folders');
  const all = (list: FolderNode[]): FolderNode[] => list.flatMap((f) => [f, ...all(f.subfolders)]);
  const found = all(folders).find((f) => f.name === name || f.name.endsWith(`.${name}`));
  if (!found) throw new Error(`no folder ${name}`);
  return found.id;
}

async function messagesIn(page: Page, folder: string): Promise<ListedMail[]> {
  const id = await folderId(page, folder);
  return (await api<{ messages: ListedMail[] }>(page, 'GET', `messages/folder/${id}`)).messages;
}

/** Closes the 'Success!' notice a save raises, so it covers nothing. */
async function closeSuccess(page: Page): Promise<void> {
  await page.getByTestId('success-dialog').getByRole('button', { name: 'Close' }).click();
}

describe('filters in the browser', () => {
  it('a filter made from a message in the builder files the next one into Invoices, read and labelled, live', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Fay Filter');
    const to = `${memberId}@mailroom.test`;
    await api(page, 'POST', 'folders', { folder: { parent_id: null, name: 'Invoices' } });
    await api(page, 'POST', 'labels', {
      label: { name: 'Finance', search_content: 'no-such-text-anywhere' },
    });
    await page.reload();

    // The first bill lands in the Inbox; "create a filter from this message" starts from its sender and subject.
    await transport.sendMail({
      from: 'Billing <billing@shop.example>',
      to,
      subject: 'Invoice 1',
      text: 'Pay 10',
    });
    const grid = page.getByRole('grid', { name: 'Messages' });
    await grid.getByRole('row', { name: /Invoice 1/ }).click({ timeout: 15_000 });
    await page.getByRole('button', { name: 'More actions for this message' }).click();
    await page.getByRole('menuitem', { name: 'Create a filter from this message' }).click();
    await page.waitForURL(/\/settings\/filters\/create\?/);
    const name = page.getByLabel('Filter name');
    await expect.poll(() => name.inputValue()).toBe('billing@shop.example');
    const first = page.getByRole('listitem', { name: 'Condition 1' });
    await expect(first.getByLabel('Value').inputValue()).resolves.toBe('billing@shop.example');
    await expect(
      page.getByRole('listitem', { name: 'Condition 2' }).getByLabel('Value').inputValue(),
    ).resolves.toBe('Invoice 1');
    await page.getByRole('button', { name: 'Remove condition 2' }).click();

    // An empty name is refused with the catalogue's text.
    await name.fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please enter a filter name!').waitFor();
    await name.fill('Bills');

    await page
      .getByRole('listitem', { name: 'Action 1' })
      .getByLabel('Folder')
      .selectOption({ label: 'Invoices' });
    await page.getByRole('button', { name: 'Add an action' }).click();
    await page
      .getByRole('listitem', { name: 'Action 2' })
      .getByLabel('Action', { exact: true })
      .selectOption('read');
    await page.getByRole('button', { name: 'Add an action' }).click();
    const third = page.getByRole('listitem', { name: 'Action 3' });
    await third.getByLabel('Action', { exact: true }).selectOption('label');
    await third.getByLabel('Label').selectOption('Finance');
    await screenshot(page, 'filters-builder-desktop-en');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/settings\/filters$/);
    await closeSuccess(page);
    await page
      .getByRole('list', { name: 'Filters, in the order they run' })
      .getByRole('link', { name: 'Bills' })
      .waitFor();
    const saved = await api<{ sieve_filter: { filters: { rules: string }[] } }>(page, 'GET', 'filters');
    expect(saved.sieve_filter.filters[0]!.rules).toBe(
      'if allof (address :contains "from" "billing@shop.example")\n{\n\taddflag "\\\\Seen";\n\taddflag "Finance";\n\tfileinto "INBOX.Invoices";\n}',
    );
    // It reopens in the builder, as the builder wrote it.
    await page.getByRole('link', { name: 'Bills' }).click();
    await expect(
      page.getByRole('listitem', { name: 'Action 3' }).getByLabel('Folder').inputValue(),
    ).resolves.toBe('INBOX.Invoices');
    // Tested against the first bill, still in the Inbox: it would be moved, read and labelled; nothing changes.
    await page.getByText('Test against a message').click();
    await expect(page.getByLabel('Message').inputValue()).resolves.not.toBe('');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page
      .getByRole('status', { name: 'What the filter would do' })
      .getByText('Move to Invoices (read, Finance)')
      .waitFor();
    await screenshot(page, 'filters-test-desktop-en');
    await page.getByRole('link', { name: 'Back to filters' }).first().click();

    // The next bill, over SMTP, appears in Invoices while it is open: read and labelled Finance.
    await page.getByRole('link', { name: 'Back to mail' }).click();
    await folderItem(page, 'Invoices').click();
    await transport.sendMail({ from: 'billing@shop.example', to, subject: 'Invoice 2', text: 'Pay 20' });
    await transport.sendMail({ from: 'friend@else.example', to, subject: 'Lunch?', text: 'Noon' });
    const row = grid.getByRole('row', { name: /Invoice 2/ });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.getAttribute('aria-label')).resolves.not.toMatch(/unread/i);
    const [label] = (await api<{ labels: { id: number }[] }>(page, 'GET', 'labels')).labels;
    await expect
      .poll(() => messagesIn(page, 'Invoices'))
      .toEqual([
        expect.objectContaining({
          subject: 'Invoice 2',
          flags: expect.objectContaining({ seen: true }),
          labels: [label!.id],
        }),
      ]);
    await expect
      .poll(async () => (await messagesIn(page, 'INBOX')).map((m) => m.subject).sort())
      .toEqual(['Invoice 1', 'Lunch?']);
    await screenshot(page, 'filters-invoices-live-desktop-en');
    await context.close();
  });

  it('a raw script with a syntax error shows the error at its line, and nothing is saved', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Raw Writer');
    await page.goto(`${url}/settings/filters?view=script`);
    // The highlighting editor, once loaded (a plain text area stands in until then).
    await page.locator('.cm-content').waitFor();
    const editor = page.getByRole('textbox', { name: 'Sieve script' });
    await editor.click();
    await page.keyboard.type(
      'require "fileinto";\n# rule:[Spam]\nif header :contains "subject" "[SPAM]" {\nfileinto "Junk"\n}\n',
    );
    const problems = page.getByRole('alert', { name: 'Errors in the script' });
    await problems.getByText(/^Line 5, column \d+:/).waitFor({ timeout: 10_000 });
    await expect(page.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    // The line itself is marked in the editor (the build's CSS Module classes start with "_").
    await expect(page.locator('.cm-line').nth(4).getAttribute('class')).resolves.toMatch(/(^| )_\w+/);
    await expect(page.locator('.cm-line').nth(3).getAttribute('class')).resolves.not.toMatch(/(^| )_\w+/);
    await screenshot(page, 'filters-script-error-desktop-en');
    // Fixed, the error goes and the script can be saved.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.type(';');
    await problems.waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByRole('button', { name: 'Save' }).click();
    await closeSuccess(page);
    await page
      .getByRole('list', { name: 'Filters, in the order they run' })
      .getByRole('link', { name: 'Spam' })
      .waitFor();
    // A rule the builder did not write opens as Sieve.
    await page
      .getByRole('list', { name: 'Filters, in the order they run' })
      .getByRole('link', { name: 'Spam' })
      .click();
    await page.getByText('This rule was written by hand, so it opens as Sieve').waitFor();
    await context.close();
  });

  it('"apply to Inbox" moves the matching messages already there, after saying how many it would', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Ada Apply');
    const to = `${memberId}@mailroom.test`;
    await deliverMany(transport, 5, (i) => ({
      from: i <= 3 ? 'news@paper.example' : 'friend@else.example',
      to,
      subject: `Letter ${i}`,
      text: 'Hello',
    }));
    await expect.poll(async () => (await messagesIn(page, 'INBOX')).length).toBe(5);
    await api(page, 'POST', 'folders', { folder: { parent_id: null, name: 'News' } });
    await api(page, 'POST', 'filters', {
      filters: [
        {
          name: 'News',
          rules: 'if allof (address :is "from" "news@paper.example")\n{\n\tfileinto "INBOX.News";\n}',
          enabled: true,
        },
      ],
    });

    await page.goto(`${url}/settings/filters`);
    await page.getByRole('button', { name: 'Apply News to a folder…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply “News” to a folder' });
    await expect(dialog.getByLabel('Folder').inputValue()).resolves.toBe(
      String(await folderId(page, 'INBOX')),
    );
    await dialog.getByRole('button', { name: 'See what it would do' }).click();
    await dialog.getByText('In Inbox, 3 of 5 messages match: it would move 3').waitFor({ timeout: 15_000 });
    // A dry run changes nothing.
    expect((await messagesIn(page, 'INBOX')).length).toBe(5);
    await screenshot(page, 'filters-apply-dry-desktop-en');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByText(/^Done: 3 messages matched; 3 moved/).waitFor({ timeout: 15_000 });
    expect((await messagesIn(page, 'News')).map((m) => m.subject).sort()).toEqual([
      'Letter 1',
      'Letter 2',
      'Letter 3',
    ]);
    expect((await messagesIn(page, 'INBOX')).map((m) => m.subject).sort()).toEqual(['Letter 4', 'Letter 5']);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await context.close();
  });

  it('the filters screens on a desktop and a phone, in English and Russian', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Lena Look');
    await api(page, 'POST', 'folders', { folder: { parent_id: null, name: 'News' } });
    await api(page, 'POST', 'filters', {
      filters: [
        {
          name: 'News',
          rules:
            'if anyof (address :is "from" "news@paper.example", header :contains "list-id" "paper")\n{\n\taddflag "\\\\Seen";\n\tfileinto "INBOX.News";\n}',
          enabled: true,
        },
        { name: 'Away', rules: 'vacation :days 7 :subject "Away" "Back on Monday.";', enabled: false },
      ],
    });
    // Dragged above News, Away runs first.
    await page.goto(`${url}/settings/filters`);
    const list = page.getByRole('list', { name: 'Filters, in the order they run' });
    await list.getByRole('listitem', { name: 'Away' }).dragTo(list.getByRole('listitem', { name: 'News' }));
    await expect
      .poll(async () =>
        (
          await api<{ sieve_filter: { filters: { name: string }[] } }>(page, 'GET', 'filters')
        ).sieve_filter.filters.map((f) => f.name),
      )
      .toEqual(['Away', 'News']);
    await list.getByRole('button', { name: 'Move News up' }).click();
    await expect
      .poll(async () =>
        (
          await api<{ sieve_filter: { filters: { name: string }[] } }>(page, 'GET', 'filters')
        ).sieve_filter.filters.map((f) => f.name),
      )
      .toEqual(['News', 'Away']);

    // The screens in both languages, on a desktop and a phone.
    const views = [
      { name: 'desktop-en', viewport: { width: 1440, height: 900 }, lang: 'en' },
      { name: 'mobile-en', viewport: { width: 390, height: 844 }, lang: 'en' },
      { name: 'desktop-ru', viewport: { width: 1440, height: 900 }, lang: 'ru' },
      { name: 'mobile-ru', viewport: { width: 390, height: 844 }, lang: 'ru' },
    ];
    for (const view of views) {
      const other = await browser.newContext({
        viewport: view.viewport,
        storageState: await context.storageState(),
      });
      const otherPage = await other.newPage();
      await otherPage.goto(`${url}/settings/filters?lang=${view.lang}`);
      await otherPage.getByRole('link', { name: 'News' }).waitFor();
      await screenshot(otherPage, `filters-list-${view.name}`);
      const ru = view.lang === 'ru';
      await otherPage
        .getByRole('button', { name: ru ? 'Применить «News» к папке…' : 'Apply News to a folder…' })
        .click();
      await otherPage.getByRole('dialog').getByRole('combobox').waitFor();
      await otherPage.waitForTimeout(300); // the dialog's fade-in
      await screenshot(otherPage, `filters-apply-${view.name}`);
      await otherPage.keyboard.press('Escape');
      await otherPage.getByRole('link', { name: 'News' }).click();
      await otherPage
        .getByRole('listitem')
        .filter({ has: otherPage.locator('select') })
        .first()
        .waitFor();
      await screenshot(otherPage, `filters-edit-${view.name}`);
      await otherPage.goto(`${url}/settings/filters?view=script&lang=${view.lang}`);
      await otherPage.locator('.cm-content').waitFor();
      await screenshot(otherPage, `filters-script-${view.name}`);
      await other.close();
    }
    await context.close();
  });
});
