import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp } from './_harness.js';

const { url } = sharedServer();
const browser = await launchBrowser();

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

// Two attachments: a small Cyrillic-named text and 20 MB of random bytes, made here and compared by hash.
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-compose-e2e-'));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));
const small = { name: 'заметки.txt', bytes: Buffer.from('Итоги ноября: всё в порядке.\n', 'utf8') };
const big = { name: 'archive-20mb.bin', bytes: randomBytes(20 * 1024 * 1024) };
for (const file of [small, big]) await fs.writeFile(path.join(tmp, file.name), file.bytes);

const subject = 'Отчёт за ноябрь — счёт №7';

async function addressOf(page: Page): Promise<string> {
  const response = await page.request.get(`${url}/api/v1/user/account`);
  return ((await response.json()) as { email: string }).email;
}

/** The notice after Send: the success text, or the error shown instead (so a failure says why). */
async function expectSent(page: Page): Promise<string> {
  const notice = page.locator('[data-testid="success-dialog"], [data-testid="error-dialog"]');
  await notice.waitFor({ timeout: 30_000 });
  const text = (await notice.textContent()) ?? '';
  expect(text).toContain('Message sent.');
  await page.getByTestId('success-dialog').getByRole('button', { name: 'Close' }).click();
  return text;
}

const inboxOf = (page: Page) =>
  page.getByRole('tree', { name: 'Folders' }).getByRole('treeitem', { name: /^Inbox/ });

async function typeRecipient(page: Page, label: string, address: string) {
  const field = page.getByTestId('compose-window').getByRole('combobox', { name: label, exact: true });
  await field.fill(address);
  await field.press('Tab');
}

describe('compose: write, attach, send, reply, drafts', () => {
  it('A writes to B with a Cyrillic subject, bold text and two attachments; B gets it live, byte for byte, and replies', async () => {
    const ann = await newPage(browser);
    const boris = await newPage(browser);
    await signUp(ann.page, url, 'Ann Lee');
    await signUp(boris.page, url, 'Boris Petrov');
    const annAddress = await addressOf(ann.page);
    const borisAddress = await addressOf(boris.page);
    const borisGrid = boris.page.getByRole('grid', { name: 'Messages' });
    await inboxOf(boris.page)
      .waitFor()
      .catch(async (error: unknown) => {
        await screenshot(boris.page, 'debug-boris');
        throw error;
      });

    // A writes.
    const a = ann.page;
    await a.getByRole('button', { name: 'New message' }).first().click();
    const compose = a.getByTestId('compose-window');
    await compose.waitFor();
    await typeRecipient(a, 'To', borisAddress);
    await compose.getByRole('listitem').filter({ hasText: borisAddress }).waitFor();
    await compose.getByLabel('Subject').fill(subject);
    const editor = compose.getByRole('textbox', { name: 'Message text' });
    await editor.click();
    await a.keyboard.type('Добрый день! ');
    await compose.getByRole('button', { name: 'Bold' }).click();
    await a.keyboard.type('Всё оплачено');
    await compose.getByRole('button', { name: 'Bold' }).click();
    await a.keyboard.type(', отчёт во вложении.');
    await compose
      .getByTestId('compose-file-input')
      .setInputFiles([path.join(tmp, small.name), path.join(tmp, big.name)]);
    const attachments = compose.getByRole('list', { name: 'Attachments' });
    await expect.poll(() => attachments.locator('[data-status="done"]').count(), { timeout: 60_000 }).toBe(2);
    await screenshot(a, 'compose-desktop-en');
    await compose.getByRole('button', { name: 'Send' }).click();
    await expectSent(a);
    await compose.waitFor({ state: 'detached' });

    // B sees it arrive without a reload, opens it, and downloads both attachments unchanged.
    const b = boris.page;
    const row = borisGrid.getByRole('row', { name: new RegExp(subject) });
    await row.waitFor({ timeout: 15_000 });
    await expect(row.getAttribute('aria-label')).resolves.toContain('Ann Lee');
    await row.click();
    const reader = b.getByRole('region', { name: 'Message' });
    await reader.getByRole('heading', { name: subject }).waitFor();
    const body = reader.frameLocator('iframe').first();
    await expect
      .poll(() => body.locator('strong, b').filter({ hasText: 'Всё оплачено' }).count(), { timeout: 10_000 })
      .toBe(1);
    for (const file of [small, big]) {
      const [download] = await Promise.all([
        b.waitForEvent('download'),
        reader.getByTitle(`Download ${file.name}`).click(),
      ]);
      expect(download.suggestedFilename()).toBe(file.name);
      const saved = await fs.readFile((await download.path())!);
      expect(saved.length).toBe(file.bytes.length);
      expect(sha256(saved)).toBe(sha256(file.bytes));
    }

    // B replies; the reply is addressed to A and carries 'Re:' once.
    await reader.getByRole('button', { name: 'Reply', exact: true }).click();
    const reply = b.getByTestId('compose-window');
    await reply.waitFor();
    await expect(reply.getByLabel('Subject').inputValue()).resolves.toBe(`Re: ${subject}`);
    await reply.getByRole('list', { name: 'To' }).getByTitle(annAddress).waitFor();
    const replyEditor = reply.getByRole('textbox', { name: 'Message text' });
    await expect.poll(() => replyEditor.locator('blockquote').textContent()).toContain('Всё оплачено');
    // The cursor starts above the quote, in the editor, with no click: the answer is typed once it has the focus
    // (typed before that, under CI load a first key once went to the page: 'пасибо').
    await expect
      .poll(() =>
        replyEditor.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)),
      )
      .toBe(true);
    await b.keyboard.type('Спасибо, получил.');
    await expect.poll(() => replyEditor.locator('p').first().textContent()).toBe('Спасибо, получил.');
    await screenshot(b, 'compose-reply-desktop-en');
    await reply.getByRole('button', { name: 'Send' }).click();
    await expectSent(b);

    // B forwards A's message outside: its attachments come along without a new upload, and with no relay set up
    // here the notice says that remote mail waits in the outbox.
    await reader.getByRole('button', { name: 'Forward', exact: true }).click();
    const forward = b.getByTestId('compose-window');
    await expect(forward.getByLabel('Subject').inputValue()).resolves.toBe(`Fwd: ${subject}`);
    await expect.poll(() => forward.locator('[data-status="done"]').count(), { timeout: 10_000 }).toBe(2);
    await typeRecipient(b, 'To', 'carol@example.org');
    await forward.getByRole('button', { name: 'Send' }).click();
    expect(await expectSent(b)).toContain('waits in the outbox');

    // A sees the reply live and, with chains on, as one chain with the message A sent.
    const annGrid = a.getByRole('grid', { name: 'Messages' });
    await annGrid.getByRole('row', { name: new RegExp(`Re: ${subject}`) }).waitFor({ timeout: 15_000 });
    const settings = await a.request.post(`${url}/api/v1/user/settings`, {
      headers: { 'x-mailroom-csrf': '1', origin: url },
      data: { message_thread: true },
    });
    expect(settings.ok()).toBe(true);
    await a.reload();
    await annGrid.getByRole('row').first().waitFor();
    await a
      .getByRole('button', { name: /Open the chain/ })
      .first()
      .click();
    await expect
      .poll(() => annGrid.getByRole('row').filter({ hasText: subject }).count(), { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    await screenshot(a, 'compose-reply-chain-desktop-en');
    await ann.context.close();
    await boris.context.close();
  });

  it('a draft survives a page reload and reopens from Drafts; the compose window on a phone in Russian', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Dana Draft');
    await inboxOf(page).waitFor();
    await page.getByRole('button', { name: 'New message' }).first().click();
    const compose = page.getByTestId('compose-window');
    await typeRecipient(page, 'To', 'friend@example.org');
    await compose.getByLabel('Subject').fill('Черновик на потом');
    // Full screen and back, folded to its title bar and back.
    await compose.getByRole('button', { name: 'Full screen' }).click();
    expect((await compose.boundingBox())!.width).toBeGreaterThan(1300);
    await screenshot(page, 'compose-fullscreen-desktop-en');
    await compose.getByRole('button', { name: 'Exit full screen' }).click();
    await compose.getByRole('button', { name: 'Collapse' }).click();
    await expect.poll(() => compose.getByLabel('Subject').isVisible()).toBe(false);
    await screenshot(page, 'compose-collapsed-desktop-en');
    await compose.getByRole('button', { name: 'Expand' }).click();
    await compose.getByRole('textbox', { name: 'Message text' }).click();
    await page.keyboard.type('Начало письма');
    await compose.getByRole('button', { name: /^Close/ }).click();
    await compose.waitFor({ state: 'detached' });

    await page.reload();
    await page
      .getByRole('tree', { name: 'Folders' })
      .getByRole('treeitem', { name: /^Drafts/ })
      .click();
    const row = page.getByRole('grid', { name: 'Messages' }).getByRole('row', { name: /Черновик на потом/ });
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const reopened = page.getByTestId('compose-window');
    await reopened.waitFor();
    await expect(reopened.getByLabel('Subject').inputValue()).resolves.toBe('Черновик на потом');
    await reopened.getByRole('listitem').filter({ hasText: 'friend@example.org' }).waitFor();
    await expect
      .poll(() => reopened.getByRole('textbox', { name: 'Message text' }).textContent())
      .toContain('Начало письма');
    await reopened.getByRole('button', { name: /^Close/ }).click();

    const mobile = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await context.storageState(),
    });
    const phone = await mobile.newPage();
    await phone.goto(`${url}/mail?lang=ru`);
    await phone.getByRole('button', { name: 'Написать' }).last().click();
    const window = phone.getByTestId('compose-window');
    await window.waitFor();
    await typeRecipient(phone, 'Кому', 'друг@пример.рф, не-адрес');
    await window.getByLabel('Тема').fill('Привет с телефона');
    await screenshot(phone, 'compose-mobile-ru');
    const box = await window.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(400);
    await mobile.close();
    await context.close();
  });

  it('an upload refused with 413 says so on its preview; a running upload can be cancelled', async () => {
    const { context, page } = await newPage(browser);
    await signUp(page, url, 'Uma Upload');
    await inboxOf(page).waitFor();
    // A proxy in front of the server answering 413 with an HTML page: the failure under test is the answer.
    let calls = 0;
    let releaseStalled: () => void = () => {};
    const stalled = new Promise<void>((resolve) => (releaseStalled = resolve));
    await page.route('**/api/v1/attachments', async (route) => {
      calls += 1;
      if (calls === 1) {
        await route.fulfill({ status: 413, contentType: 'text/html', body: '<html>413</html>' });
        return;
      }
      await stalled;
      await route.abort().catch(() => {});
    });
    await page.getByRole('button', { name: 'New message' }).first().click();
    const compose = page.getByTestId('compose-window');
    const input = compose.getByTestId('compose-file-input');
    await input.setInputFiles([path.join(tmp, small.name)]);
    const failed = compose.locator('[data-status="failed"]');
    await failed.waitFor();
    await expect.poll(() => failed.textContent()).toContain('Request Entity Too Large');
    await screenshot(page, 'compose-upload-error-desktop-en');

    await input.setInputFiles([path.join(tmp, big.name)]);
    const running = compose.locator('[data-status="uploading"]');
    await running.waitFor();
    await compose.getByRole('button', { name: `Cancel uploading ${big.name}` }).click();
    await running.waitFor({ state: 'detached' });
    await expect.poll(() => compose.getByText(big.name).count()).toBe(0);
    releaseStalled();
    await context.close();
  });
});
