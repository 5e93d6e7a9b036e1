import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, signUp, startServer } from './_harness.js';
import { startDnsServer } from '../../../test-support/dns.js';
import { startDovecot } from '../../../test-support/dovecot.js';

// Issue 18, collectors, end to end against a real Dovecot on loopback: the member adds a collector by its address
// alone — the server is discovered through the loopback DNS server's SRV record _imap._tcp (STARTTLS, Dovecot's
// self-signed certificate trusted by the server through NODE_EXTRA_CA_CERTS, the name it was made for) —, watches the
// import on settings/collectors, finds the remote folders (Russian names included) under the collector's folder in
// the sidebar with their unread counts, the senders' dates and the flags; a message appended on Dovecot arrives after
// the next poll (COLLECTOR_POLL_MINUTES=0.1: every 6 s); switched off, the collector brings nothing more; deleted with 'keep mail',
// its folders and mail stay. Screens at 1440×900 and 390×844, en and ru.

const DOMAIN = 'remote-mail.test';
const IVAN = `ivan@${DOMAIN}`;
const IVAN_PASSWORD = 'remote-secret';
/** The collector's folder as the sidebar names it: the address, its dots U+2024 (collectorFolderSegment). */
const IVAN_FOLDER = IVAN.replace(/\./g, '\u2024');
/** The name Dovecot's self-signed certificate was made for (test-support/dovecot.ts: CN=imap.test). */
const IMAP_HOST = 'imap.test';

// ---------------------------------------------------------------------------------------------------------------
// The remote mailbox: Dovecot with STARTTLS on its plain port, filled through IMAP before the server starts.
const dovecot = await startDovecot({ users: [{ user: IVAN, password: IVAN_PASSWORD }], tls: true });
afterAll(() => dovecot.stop());

function message(subject: string, date: string, from = 'Pyotr <pyotr@elsewhere.test>'): string {
  return [
    `From: ${from}`,
    `To: ${IVAN}`,
    `Subject: =?UTF-8?B?${Buffer.from(subject).toString('base64')}?=`,
    `Date: ${date}`,
    `Message-ID: <${subject.replace(/\W+/g, '-')}.${Date.parse(date)}@elsewhere.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    `${subject}: the body.`,
    '',
  ].join('\r\n');
}

const remote = await dovecot.client(IVAN);
afterAll(() => remote.logout().catch(() => undefined));
await remote.mailboxCreate('Sent');
await remote.mailboxCreate('Работа');
await remote.mailboxCreate('Работа.2024');
const OLD_DATE = 'Mon, 02 Mar 2020 10:15:00 +0000';
await remote.append(
  'INBOX',
  message('Flagged and read', OLD_DATE),
  ['\\Seen', '\\Flagged'],
  new Date(OLD_DATE),
);
await remote.append(
  'INBOX',
  message('Answered long ago', 'Mon, 10 May 2021 08:00:00 +0000'),
  ['\\Seen', '\\Answered'],
  new Date('2021-05-10T08:00:00Z'),
);
await remote.append('INBOX', message('Still unread', 'Sat, 15 Jan 2022 12:00:00 +0000'), []);
await remote.append('Sent', message('Sent from the old box', 'Tue, 01 Feb 2022 09:00:00 +0000', IVAN), [
  '\\Seen',
]);
await remote.append('Работа', message('Отчёт за квартал', 'Wed, 06 Apr 2022 09:30:00 +0000'), ['\\Seen']);
await remote.append('Работа', message('Совещание в пятницу', 'Thu, 07 Apr 2022 14:00:00 +0000'), []);
await remote.append('Работа.2024', message('План на 2024', 'Tue, 02 Jan 2024 11:00:00 +0000'), []);
const REMOTE_TOTAL = 7;

// ---------------------------------------------------------------------------------------------------------------
// A DNS server of the test's own on loopback (test-support/dns.ts): the SRV record that names Dovecot, and the
// host's address.
const dns = await startDnsServer();
afterAll(() => dns.close());
dns.zone.set(`_imap._tcp.${DOMAIN}`, 'SRV', [`0 0 ${dovecot.port} ${IMAP_HOST}`]);
dns.zone.set(IMAP_HOST, 'A', ['127.0.0.1']);

const { url } = await startServer({
  DNS_SERVERS: dns.server,
  // Collectors connect only to public addresses; the test's Dovecot is the named exception.
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.1/32',
  // The server verifies the certificate as it would any other: the test's own is trusted for this process only.
  NODE_EXTRA_CA_CERTS: path.join(dovecot.dir, 'cert.pem'),
  COLLECTOR_POLL_MINUTES: '0.1',
});
const browser = await launchBrowser();
const phone = { width: 390, height: 844 };

// ---------------------------------------------------------------------------------------------------------------
const collectors = (page: Page) => page.getByRole('tree', { name: 'Collected mail' });
const grid = (page: Page) => page.getByRole('grid', { name: 'Messages' });
const collectorRow = (page: Page) => page.getByRole('listitem', { name: IVAN });

/** A folder of the collectors' tree by its name ("INBOX" matches "INBOX, 1 unread"). */
function collectedFolder(page: Page, name: string) {
  return collectors(page).getByRole('treeitem', { name: new RegExp(`^${name}(,|$)`) });
}

/** The collector's remote INBOX: the first treeitem named INBOX below the collector's own folder. */
async function openCollectedInbox(page: Page) {
  await collectedFolder(page, 'INBOX').click();
  await grid(page)
    .getByRole('row', { name: /Still unread/ })
    .waitFor({ timeout: 15_000 });
}

async function otherView(
  context: BrowserContext,
  options: { viewport?: { width: number; height: number }; lang: 'en' | 'ru'; path: string },
) {
  const other = await browser.newContext({
    viewport: options.viewport ?? { width: 1440, height: 900 },
    storageState: await context.storageState(),
  });
  const page = await other.newPage();
  await page.goto(`${url}${options.path}${options.path.includes('?') ? '&' : '?'}lang=${options.lang}`);
  return { other, page };
}

describe('collectors', () => {
  it('adds a collector by address, imports the remote folders with dates and flags, polls, stops when off, and keeps the mail when deleted', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Collector Owner');

    // Settings → Mail collectors → Add collector: the address alone; discovery finds Dovecot through SRV.
    await page.goto(`${url}/settings`);
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Mail collectors' })
      .click();
    await page.getByText('No collectors yet.').waitFor();
    await page.getByRole('link', { name: 'Add collector' }).click();
    await page.waitForURL(/\/settings\/collectors\/create$/);
    await page.getByLabel('Address of the other mailbox').fill(IVAN);
    await page.getByRole('button', { name: 'Find the server' }).click();
    const found = page.getByRole('group', { name: 'Server found' });
    await found
      .getByText(`${IMAP_HOST}, port ${dovecot.port}, STARTTLS, found from the domain's DNS SRV record.`)
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'collectors-create-found-desktop-en');

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/settings\/collectors\/confirm\//);
    expect(await page.getByLabel('Login').inputValue()).toBe(IVAN);
    await page.getByText(`Server: ${IMAP_HOST}, port ${dovecot.port}, STARTTLS`).waitFor();
    // A wrong password first: said in words, and nothing is created.
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Add collector' }).click();
    await page.getByText('Invalid password for the mailbox').waitFor({ timeout: 20_000 });
    await screenshot(page, 'collectors-confirm-wrong-password-desktop-en');
    await page.getByLabel('Password', { exact: true }).fill(IVAN_PASSWORD);
    await page.getByRole('button', { name: 'Add collector' }).click();
    await page.waitForURL(/\/settings\/collectors$/, { timeout: 20_000 });

    // The list: the import runs and finishes, its progress shown as it goes (live, over the websocket).
    const row = collectorRow(page);
    await row.waitFor();
    await row.getByText(`Folders 4/4, messages ${REMOTE_TOTAL}/${REMOTE_TOTAL}`).waitFor({ timeout: 60_000 });
    await row.getByText('Up to date').waitFor({ timeout: 30_000 });
    await row.getByText(/^Last checked: /).waitFor();
    await screenshot(page, 'collectors-list-desktop-en');

    // The sidebar: the collector's folder under Collected mail, the remote folders below it with their unread counts.
    await page.goto(`${url}/mail`);
    await collectors(page)
      .getByRole('treeitem', { name: new RegExp(`^${IVAN_FOLDER}`) })
      .waitFor();
    await collectedFolder(page, 'INBOX, 1 unread').waitFor();
    await collectedFolder(page, 'Работа, 1 unread').waitFor();
    await collectedFolder(page, '2024, 1 unread').waitFor();
    await collectedFolder(page, 'Sent').waitFor();
    // Nothing of the collector's is among the member's own folders.
    expect(
      await page
        .getByRole('tree', { name: 'Folders' })
        .getByRole('treeitem', { name: /^(import|Работа)/ })
        .count(),
    ).toBe(0);
    await openCollectedInbox(page);
    expect(await grid(page).getByRole('row').count()).toBe(3);
    // The sender's date is the message's date; the flags came along.
    const flagged = grid(page).getByRole('row', { name: /Flagged and read/ });
    expect(await flagged.locator('time').getAttribute('datetime')).toMatch(/^2020-03-02T10:15:00/);
    expect(await flagged.getByRole('button', { name: 'Remove flag' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const answered = grid(page).getByRole('row', { name: /Answered long ago/ });
    expect(await answered.locator('time').getAttribute('datetime')).toMatch(/^2021-05-10T08:00:00/);
    expect(
      await answered.getByRole('button', { name: 'Flag', exact: true }).getAttribute('aria-pressed'),
    ).toBe('false');
    await collectedFolder(page, 'Работа, 1 unread').click();
    await grid(page)
      .getByRole('row', { name: /Совещание в пятницу/ })
      .waitFor();
    expect(await grid(page).getByRole('row').count()).toBe(2);
    await screenshot(page, 'collectors-sidebar-desktop-en');

    // New mail on the remote box arrives after the next poll, without a reload.
    await openCollectedInbox(page);
    await remote.append('INBOX', message('Arrived while polling', new Date().toUTCString()), []);
    await grid(page)
      .getByRole('row', { name: /Arrived while polling/ })
      .waitFor({ timeout: 40_000 });
    await collectedFolder(page, 'INBOX, 2 unread').waitFor({ timeout: 10_000 });

    // Switched off: it says so, and mail appended afterwards does not come.
    await page.goto(`${url}/settings/collectors`);
    const toggle = collectorRow(page).getByRole('switch', { name: `Collect mail from ${IVAN}` });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await collectorRow(page).locator('span', { hasText: /^Off$/ }).first().waitFor();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    const offAt = Date.now();
    await remote.append('INBOX', message('Sent while switched off', new Date().toUTCString()), []);

    // While a poll's time passes: the screens on a phone and in Russian.
    {
      const { other, page: mobile } = await otherView(context, {
        viewport: phone,
        lang: 'en',
        path: '/settings/collectors',
      });
      await collectorRow(mobile).waitFor();
      await screenshot(mobile, 'collectors-list-mobile-en');
      await mobile.goto(`${url}/settings/collectors/create`);
      await mobile.getByLabel('Address of the other mailbox').fill(`anna@${DOMAIN}`);
      await mobile.getByRole('button', { name: 'Find the server' }).click();
      await mobile.getByRole('group', { name: 'Server found' }).waitFor({ timeout: 20_000 });
      await mobile.getByText('Set the server by hand').click();
      await screenshot(mobile, 'collectors-create-mobile-en');
      await mobile.goto(`${url}/mail`);
      await mobile.getByRole('button', { name: 'Open menu' }).click();
      await collectors(mobile).waitFor();
      await mobile.waitForTimeout(300);
      await screenshot(mobile, 'collectors-sidebar-mobile-en');
      await other.close();
    }
    {
      const { other, page: ru } = await otherView(context, { lang: 'ru', path: '/settings/collectors' });
      await ru.getByRole('listitem', { name: IVAN }).getByText('Выключен').waitFor();
      await screenshot(ru, 'collectors-list-desktop-ru');
      await ru.goto(`${url}/settings/collectors/confirm/${encodeURIComponent(IVAN)}?lang=ru`);
      await ru.getByText(`Сервер: ${IMAP_HOST}, порт ${dovecot.port}, STARTTLS`).waitFor({ timeout: 20_000 });
      await screenshot(ru, 'collectors-confirm-desktop-ru');
      await ru.goto(`${url}/mail?lang=ru`);
      await ru.getByRole('tree', { name: 'Сборщики почты' }).waitFor();
      await screenshot(ru, 'collectors-sidebar-desktop-ru');
      await other.close();
      const { other: phoneRu, page: mobileRu } = await otherView(context, {
        viewport: phone,
        lang: 'ru',
        path: '/settings/collectors',
      });
      await mobileRu.getByRole('listitem', { name: IVAN }).waitFor();
      await screenshot(mobileRu, 'collectors-list-mobile-ru');
      await phoneRu.close();
    }

    // Several polls' time (6 s each, and the job's 10-s tick) after switching off: the message appended then has not come.
    const waited = Date.now() - offAt;
    if (waited < 30_000) await page.waitForTimeout(30_000 - waited);
    await page.goto(`${url}/mail`);
    await openCollectedInbox(page);
    await grid(page)
      .getByRole('row', { name: /Arrived while polling/ })
      .waitFor();
    expect(
      await grid(page)
        .getByRole('row', { name: /Sent while switched off/ })
        .count(),
    ).toBe(0);

    // Deleted, keeping the mail: the dialog asks; the collector goes, its folders and messages stay.
    await page.goto(`${url}/settings/collectors`);
    await collectorRow(page)
      .getByRole('button', { name: `Delete the collector of ${IVAN}` })
      .click();
    const dialog = page.getByRole('alertdialog', { name: `Delete the collector of ${IVAN}?` });
    const keep = dialog.getByLabel(/Keep the mail already collected/);
    expect(await keep.isChecked()).toBe(true);
    await page.waitForTimeout(300);
    await screenshot(page, 'collectors-delete-dialog-desktop-en');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await collectorRow(page).waitFor({ state: 'detached' });
    await page.getByText('No collectors yet.').waitFor();
    await page.goto(`${url}/mail`);
    const kept = page.getByRole('treeitem', { name: /^Работа(,|$)/ });
    await kept.waitFor();
    await kept.click();
    await grid(page)
      .getByRole('row', { name: /Отчёт за квартал/ })
      .waitFor();
    expect(await grid(page).getByRole('row').count()).toBe(2);
    await screenshot(page, 'collectors-kept-after-delete-desktop-en');
    await context.close();
  }, 420_000);
});
