import { afterAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startDnsServer } from '../../../test-support/dns.js';
import { dkimKey, dkimSigned } from '../../../test-support/dkim.js';
import { launchBrowser, newPage, screenshot, signUp, smtpTransport, startServer } from './_harness.js';

// Issue 30, mail a member can trust: a message signed with DKIM from a domain whose SPF names the loopback client
// arrives with dkim=pass spf=pass dmarc=pass and the reader marks it verified; a look-alike of the mail domain and an
// unproven message from a protected domain are flagged; a forged p=reject message is refused at SMTP. Settings ›
// Spam keeps the allow and block lists. Against a DNS server of the test's own on loopback (test-support/dns.ts).
const dns = await startDnsServer();
afterAll(() => dns.close());
const SHOP = 'shop-news.test';
const WALLET = 'wallet-provider.test';
const key = dkimKey();
dns.zone.set(SHOP, 'TXT', ['v=spf1 ip4:127.0.0.1 -all']);
dns.zone.set(`_dmarc.${SHOP}`, 'TXT', ['v=DMARC1; p=reject']);
dns.zone.set(`sel._domainkey.${SHOP}`, 'TXT', [key.record]);
dns.zone.set(WALLET, 'TXT', ['v=spf1 -all']);
dns.zone.set(`_dmarc.${WALLET}`, 'TXT', ['v=DMARC1; p=none']);

const { url, smtpPort } = await startServer({
  DNS_SERVERS: dns.server,
  MX_HOST: 'mx.mailroom.test',
  PROTECTED_DOMAINS: `mailroom.test ${WALLET}`,
});
const browser = await launchBrowser();
const transport = smtpTransport(smtpPort);

function message(from: string, to: string, subject: string, text: string): Buffer {
  return Buffer.from(
    [
      `From: ${from}`,
      `To: ${to}`,
      `Subject: ${subject}`,
      `Date: ${new Date().toUTCString()}`,
      `Message-ID: <${Date.now()}.${Math.random().toString(36).slice(2)}@e2e.test>`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
      '',
    ].join('\r\n'),
  );
}

const signed = (raw: Buffer) => dkimSigned(raw, SHOP, key);

async function openRow(page: Page, subject: string): Promise<Locator> {
  await page
    .getByRole('grid', { name: /^(Messages|Письма)$/ })
    .getByRole('row', { name: new RegExp(subject) })
    .click();
  const reader = page.getByRole('region', { name: /^(Message|Письмо)$/ });
  await reader.getByRole('heading', { name: subject }).waitFor();
  return reader;
}

describe('the reader shows whom to trust', () => {
  it('a verified sender is marked, a look-alike and an unproven protected domain are flagged, in en and ru', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Tess Trust');
    const address = `${memberId}@mailroom.test`;

    await transport.sendMail({
      envelope: { from: `news@${SHOP}`, to: [address] },
      raw: await signed(
        message(`Shop News <news@${SHOP}>`, address, 'Your weekly offers', 'Hello from the shop.'),
      ),
    });
    await transport.sendMail({
      envelope: { from: 'support@mai1room.test', to: [address] },
      raw: message(
        'Mailroom Support <support@mai1room.test>',
        address,
        'Confirm your mailbox',
        'Your mailbox will be closed. Confirm your password.',
      ),
    });
    await transport.sendMail({
      envelope: { from: 'bounce@elsewhere.test', to: [address] },
      raw: message(`Wallet Support <support@${WALLET}>`, address, 'Wallet locked', 'Unlock your wallet now.'),
    });
    // A forgery from a p=reject domain (sent from elsewhere, unsigned) never arrives.
    await expect(
      transport.sendMail({
        envelope: { from: 'bounce@elsewhere.test', to: [address] },
        raw: message(`Billing <billing@${SHOP}>`, address, 'Invoice overdue', 'Pay now.'),
      }),
    ).rejects.toMatchObject({ responseCode: 550 });

    const verified = await openRow(page, 'Your weekly offers');
    await verified.getByText('Verified', { exact: true }).waitFor();
    await expect(verified.getByRole('alert').count()).resolves.toBe(0);
    await verified.getByRole('button', { name: 'Details' }).click();
    await expect(
      verified.getByText('DMARC').locator('xpath=following-sibling::dd[1]').textContent(),
    ).resolves.toBe('pass');
    await screenshot(page, 'trust-verified-desktop-en');

    const lookalike = await openRow(page, 'Confirm your mailbox');
    await expect(lookalike.getByRole('alert').textContent()).resolves.toContain(
      'mai1room.test imitates mailroom.test',
    );
    await expect(lookalike.getByText('Verified', { exact: true }).count()).resolves.toBe(0);
    await screenshot(page, 'trust-lookalike-desktop-en');

    const own = await openRow(page, 'Wallet locked');
    await expect(own.getByRole('alert').textContent()).resolves.toContain(
      `claims to come from ${WALLET} but did not prove it`,
    );

    // In Russian, on a phone and on a desktop.
    for (const view of [
      { name: 'ru-mobile', viewport: { width: 390, height: 844 } },
      { name: 'ru-desktop', viewport: { width: 1440, height: 900 } },
    ]) {
      const ru = await browser.newContext({
        viewport: view.viewport,
        locale: 'ru-RU',
        storageState: await context.storageState(),
      });
      const ruPage = await ru.newPage();
      await ruPage.goto(`${url}/mail`);
      const reader = await openRow(ruPage, 'Confirm your mailbox');
      await expect(reader.getByRole('alert').textContent()).resolves.toContain(
        'mai1room.test подделывается под mailroom.test',
      );
      await screenshot(ruPage, `trust-lookalike-${view.name}`);
      // On a phone the reader covers the list: back to it first.
      if (view.viewport.width < 768) await ruPage.goBack();
      const shop = await openRow(ruPage, 'Your weekly offers');
      await shop.getByText('Проверено', { exact: true }).waitFor();
      await screenshot(ruPage, `trust-verified-${view.name}`);
      await ru.close();
    }
    await context.close();
  });

  it('Settings › Spam blocks a sender, whose next message goes to Junk', async () => {
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Sam Spam');
    const address = `${memberId}@mailroom.test`;
    await page.goto(`${url}/settings/spam`);
    await page.getByLabel('Address or domain').fill('promo.test');
    await page.getByLabel('List', { exact: true }).selectOption('block');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const list = page.getByRole('list', { name: 'Allowed and blocked senders' });
    await list.getByText('promo.test', { exact: true }).waitFor();
    await screenshot(page, 'settings-spam-desktop-en');

    await transport.sendMail({
      envelope: { from: 'deals@promo.test', to: [address] },
      raw: message('Deals <deals@promo.test>', address, 'Huge discounts', 'Buy now.'),
    });
    await page.goto(`${url}/mail`);
    await page
      .getByRole('tree', { name: 'Folders' })
      .getByRole('treeitem', { name: /^Junk(,|$)/ })
      .click();
    await page.getByText('Messages in Junk are deleted after 30 days.').waitFor();
    const reader = await openRow(page, 'Huge discounts');
    await expect(reader.getByRole('status').filter({ hasText: 'block list' }).count()).resolves.toBe(1);
    await screenshot(page, 'trust-junk-blocked-desktop-en');

    const ru = await browser.newContext({
      viewport: { width: 390, height: 844 },
      locale: 'ru-RU',
      storageState: await context.storageState(),
    });
    const ruPage = await ru.newPage();
    await ruPage.goto(`${url}/settings/spam`);
    await ruPage.getByRole('list', { name: 'Разрешённые и заблокированные отправители' }).waitFor();
    await screenshot(ruPage, 'settings-spam-mobile-ru');
    await ru.close();
    await context.close();
  });
});
