import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  deliverMany,
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

const LONG_ADDRESS = 'bartholomew.featherstonehaugh@accounts.example.org';

/** A newsletter built the usual way: a centred 600-px table, an image as wide, two columns under it. */
const NEWSLETTER = `<table width="600" align="center" cellpadding="0" cellspacing="0" style="width:600px">
  <tr><td colspan="2"><div style="display:block;width:600px;min-width:600px;height:80px;background:#2a6">Banner</div></td></tr>
  <tr><td width="300" style="width:300px">Left column of the issue</td>
      <td width="300" style="width:300px" id="right-edge">RIGHT EDGE</td></tr>
</table>`;

async function openMessage(page: Page, subject: RegExp) {
  const row = page.getByRole('grid', { name: /Messages|Письма/ }).getByRole('row', { name: subject });
  await row.waitFor({ timeout: 15_000 });
  await row.click();
  await page.waitForURL(/\/mail\/folder\/all\/\d+\/1\/\d+$/);
}

describe('the reader lays out mail as it comes', () => {
  it('attachments keep off the pane edge; a long sender address wraps whole, not mid-word', async () => {
    const { context, page } = await newPage(browser, { width: 1024, height: 768 });
    const memberId = await signUp(page, url, 'Lay Out');
    await transport.sendMail({
      from: `"Bartholomew Featherstonehaugh of the Accounts Department" <${LONG_ADDRESS}>`,
      to: `${memberId}@mailroom.test`,
      subject: 'Quarterly statements',
      text: 'Both statements are attached.',
      attachments: [
        { filename: 'statement-q3.pdf', content: Buffer.alloc(1500, 1), contentType: 'application/pdf' },
        { filename: 'notes.txt', content: 'notes', contentType: 'text/plain' },
      ],
    });
    await openMessage(page, /Quarterly statements/);
    const attachments = page.getByRole('region', { name: 'Attachments' });
    await attachments.waitFor();
    const reader = page.locator('article').first();
    const [pane, block] = [await reader.boundingBox(), await attachments.boundingBox()];
    expect(block!.x - pane!.x).toBeGreaterThanOrEqual(16);

    // Where the address breaks: only after a dot or before the @, never inside a name.
    const breaks = await page.getByText(LONG_ADDRESS, { exact: true }).evaluate((element) => {
      const chars: { char: string; top: number }[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < node.textContent!.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          chars.push({ char: node.textContent![i]!, top: Math.round(range.getBoundingClientRect().top) });
        }
      }
      return chars.flatMap((c, i) =>
        i > 0 && c.top > chars[i - 1]!.top ? [`${chars[i - 1]!.char}|${c.char}`] : [],
      );
    });
    expect(breaks.every((at) => at.startsWith('.|') || at.endsWith('|@'))).toBe(true);
    await screenshot(page, 'reader-attachments-1024-en');
    await context.close();
  });

  it('on a phone: attachments off the screen edge, a 600-px newsletter readable to its right edge', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 });
    const memberId = await signUp(page, url, 'Phone Reader');
    await transport.sendMail({
      from: '"The Weekly" <weekly@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: 'This week in gardening',
      html: NEWSLETTER,
      attachments: [{ filename: 'seeds.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' }],
    });
    await openMessage(page, /This week in gardening/);
    const attachments = page.getByRole('region', { name: 'Attachments' });
    await attachments.waitFor();
    expect((await attachments.boundingBox())!.x).toBeGreaterThanOrEqual(12);

    const frame = page.frameLocator('iframe[title="This week in gardening"]');
    const right = frame.locator('#right-edge');
    await right.waitFor();
    const iframe = page.locator('iframe[title="This week in gardening"]');
    // The whole newsletter shows inside the frame, shrunk to its width, and the frame is as tall as it.
    await expect
      .poll(() =>
        iframe.evaluate((element: HTMLIFrameElement) => {
          const doc = element.contentDocument!;
          const cell = doc.getElementById('right-edge')!.getBoundingClientRect();
          const last = doc.body.lastElementChild!.getBoundingClientRect();
          return {
            rightEdgeShows: cell.right <= element.clientWidth + 1,
            wholeHeight: last.bottom <= element.clientHeight + 1,
          };
        }),
      )
      .toEqual({ rightEdgeShows: true, wholeHeight: true });
    await screenshot(page, 'reader-newsletter-phone-en');
    await context.close();
  });

  it('on a phone in Russian the folder title shows whole when there is room, and the message password fits', async () => {
    const { context, page } = await newPage(browser, { width: 390, height: 844 }, 'ru-RU');
    const memberId = await signUp(page, url, 'Phone Title');
    await deliverMany(transport, 35, (i) => ({
      from: '"Sender" <sender@example.org>',
      to: `${memberId}@mailroom.test`,
      subject: `Письмо ${i}`,
      text: `Текст ${i}.`,
    }));
    const title = page.getByRole('heading', { name: 'Входящие', level: 1 });
    await page
      .getByRole('grid')
      .getByRole('row', { name: /Письмо 35/ })
      .waitFor({ timeout: 15_000 });
    await title.waitFor();
    await screenshot(page, 'inbox-phone-ru');
    const cut = await title.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(cut).toBe(false);

    await page.getByRole('button', { name: 'Написать' }).first().click();
    await page.getByRole('switch', { name: 'Зашифровать паролем' }).check();
    const password = page.getByRole('textbox', { name: 'Пароль', exact: true });
    await password.waitFor();
    expect(await password.inputValue()).toHaveLength(20);
    expect(await password.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth)).toBe(
      true,
    );
    await screenshot(page, 'compose-encrypt-phone-ru');
    await context.close();
  });
});
