import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, sharedServer, signUp, smtpTransport } from './_harness.js';

const { url, dataDir, databaseUrl, smtpPort } = sharedServer();
const browser = await launchBrowser();

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-encrypted-e2e-'));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));
const file = { name: 'договор.pdf', bytes: Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(200_000)]) };
await fs.writeFile(path.join(tmp, file.name), file.bytes);

const subject = 'Условия сделки';
const secretText = 'The price is 4200 and the date stays';

async function addressOf(page: Page): Promise<string> {
  const response = await page.request.get(`${url}/api/v1/user/account`);
  return ((await response.json()) as { email: string }).email;
}

/** The /decrypt link of the newest message in the Inbox, as the recipient's mail has it. */
async function decryptLink(page: Page): Promise<string> {
  const { folders } = (await (await page.request.get(`${url}/api/v1/folders`)).json()) as {
    folders: { id: number; system: string | null }[];
  };
  const inbox = folders.find((f) => f.system === 'inbox')!;
  const list = (await (
    await page.request.get(`${url}/api/v1/messages/folder/${inbox.id}?page=1&limit=5`)
  ).json()) as { messages: { uid: number }[] };
  const opened = await page.request.get(`${url}/api/v1/messages/${inbox.id}/${list.messages[0]!.uid}`);
  const { message } = (await opened.json()) as { message: { content: string } };
  const body = Buffer.from(message.content, 'base64').toString('utf8');
  return /https?:\/\/[^\s"<]+\/decrypt\?id=[A-Za-z0-9_-]{22}/.exec(body)![0];
}

describe('password-encrypted messages', () => {
  it('A sends an encrypted message to B; /decrypt refuses a wrong password and opens with the right one, attachment included', async () => {
    const ann = await newPage(browser);
    const boris = await newPage(browser);
    await signUp(ann.page, url, 'Ann Lee');
    await signUp(boris.page, url, 'Boris Petrov');
    const borisAddress = await addressOf(boris.page);

    // A writes, switches encryption on, keeps the generated password and sends.
    const a = ann.page;
    await a.getByRole('button', { name: 'New message' }).first().click();
    const compose = a.getByTestId('compose-window');
    await compose.waitFor();
    const to = compose.getByRole('combobox', { name: 'To', exact: true });
    await to.fill(borisAddress);
    await to.press('Tab');
    await compose.getByLabel('Subject').fill(subject);
    await compose.getByRole('textbox', { name: 'Message text' }).click();
    await a.keyboard.type(secretText);
    await compose.getByRole('switch', { name: 'Encrypt with a password' }).check();
    const passwordField = compose.getByRole('textbox', { name: 'Password' });
    const password = await passwordField.inputValue();
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
    await compose.getByTestId('compose-file-input').setInputFiles([path.join(tmp, file.name)]);
    await compose.getByText(file.name).waitFor();
    await screenshot(a, 'encrypted-compose');
    await compose.getByRole('button', { name: 'Send' }).click();
    const notice = a.locator('[data-testid="success-dialog"], [data-testid="error-dialog"]');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.textContent()).toContain('Message sent.');

    // Nothing of it reached the server's disk in the clear: not in the database files, not in a blob. The
    // server is shared with the other test files, whose mail is there too; these strings are this file's own.
    const needles = [secretText, subject, password, file.bytes.subarray(100_000, 100_064)].map((n) =>
      typeof n === 'string' ? Buffer.from(n) : n,
    );
    const files = await fs.readdir(dataDir, { recursive: true, withFileTypes: true });
    let scanned = 0;
    for (const entry of files.filter((f) => f.isFile())) {
      // A temporary file the server removed since the listing (an upload of another file's test) holds nothing.
      const bytes = await fs.readFile(path.join(entry.parentPath, entry.name)).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
        throw error;
      });
      scanned += bytes.length;
      for (const needle of needles) expect(bytes.includes(needle), entry.name).toBe(false);
    }
    // On PostgreSQL (the cluster mode of _cluster.ts) the database's files are not ours to read: its content is, as
    // pg_dump writes it (bytea as hex).
    if (databaseUrl) {
      const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', databaseUrl], {
        encoding: 'buffer',
        maxBuffer: 1 << 30,
      });
      scanned += stdout.length;
      for (const needle of needles) {
        expect(stdout.includes(needle), 'pg_dump').toBe(false);
        expect(stdout.includes(Buffer.from(needle.toString('hex'))), 'pg_dump, hex').toBe(false);
      }
    }
    // PGlite's files alone are megabytes; on PostgreSQL what is scanned is the bucket (the encrypted message's blob,
    // over 200 KB of ciphertext, among it) and the database's dump.
    expect(scanned).toBeGreaterThan(databaseUrl ? 250_000 : 1_000_000);

    // B gets a notice, not the message; the link in it works without an account.
    const row = boris.page
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /Encrypted message/ });
    await row.waitFor({ timeout: 15_000 });
    const link = await decryptLink(boris.page);
    expect(link.startsWith(`${url}/decrypt?id=`)).toBe(true);

    const stranger = await newPage(browser);
    const page = stranger.page;
    await page.goto(link);
    const prompt = page.getByLabel('Password');
    await prompt.fill('wrong-password');
    await page.getByRole('button', { name: 'Decrypt' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), { timeout: 30_000 })
      .toContain('Wrong password');
    await screenshot(page, 'encrypted-wrong-password');

    await prompt.fill(password);
    await page.getByRole('button', { name: 'Decrypt' }).click();
    const message = page.getByRole('article', { name: 'Decrypted message' });
    await message.getByRole('heading', { name: subject }).waitFor({ timeout: 30_000 });
    await expect
      .poll(() => message.frameLocator('iframe').first().locator('body').textContent(), { timeout: 10_000 })
      .toContain(secretText);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      message.getByRole('link', { name: new RegExp(file.name) }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(file.name);
    const saved = await fs.readFile((await download.path())!);
    expect(sha256(saved)).toBe(sha256(file.bytes));
    await screenshot(page, 'encrypted-decrypted');

    // In B's own mailbox the reader asks for the same password.
    await row.click();
    const reader = boris.page.getByRole('region', { name: 'Message' });
    await reader.getByLabel('Password').fill(password);
    await reader.getByRole('button', { name: 'Decrypt' }).click();
    await reader.getByRole('heading', { name: subject }).waitFor({ timeout: 30_000 });
    await screenshot(boris.page, 'encrypted-reader');

    // A message to be encrypted is never saved as a draft, so closing it asks first.
    await a.getByTestId('success-dialog').waitFor({ state: 'detached' });
    await a.getByRole('button', { name: 'New message' }).first().click();
    await compose.getByRole('textbox', { name: 'Message text' }).click();
    await a.keyboard.type('not to be kept');
    await compose.getByRole('switch', { name: 'Encrypt with a password' }).check();
    await compose.getByRole('button', { name: /^Close/ }).click();
    const confirm = a.getByRole('alertdialog', { name: 'Discard the encrypted message?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Discard' }).click();
    await compose.waitFor({ state: 'detached' });

    // On a phone in Russian: the prompt, then the message.
    const phone = await newPage(browser, { width: 390, height: 844 }, 'ru-RU');
    await phone.page.goto(link);
    await phone.page.getByRole('heading', { name: 'Расшифровать письмо' }).waitFor();
    await screenshot(phone.page, 'encrypted-prompt-ru-mobile');
    await phone.page.getByLabel('Пароль').fill(password);
    await phone.page.getByRole('button', { name: 'Расшифровать' }).click();
    await phone.page.getByRole('heading', { name: subject }).waitFor({ timeout: 30_000 });
    await screenshot(phone.page, 'encrypted-decrypted-ru-mobile');
  });

  it('attachments added before Encrypt is ticked, and a forward’s, are encrypted in the browser; ticked off again they are uploaded', async () => {
    const ann = await newPage(browser);
    const boris = await newPage(browser);
    const annId = await signUp(ann.page, url, 'Ann Lee');
    await signUp(boris.page, url, 'Boris Petrov');
    const borisAddress = await addressOf(boris.page);
    const a = ann.page;
    const compose = a.getByTestId('compose-window');
    const attachments = compose.getByRole('list', { name: 'Attachments' });
    const encrypt = compose.getByRole('switch', { name: 'Encrypt with a password' });
    const borisRows = boris.page.getByRole('grid', { name: 'Messages' }).getByRole('row');

    async function send(): Promise<void> {
      await compose.getByRole('button', { name: 'Send' }).click();
      const notice = a.locator('[data-testid="success-dialog"], [data-testid="error-dialog"]');
      await notice.waitFor({ timeout: 60_000 });
      expect(await notice.textContent()).toContain('Message sent.');
      await a.getByTestId('success-dialog').getByRole('button', { name: 'Close' }).click();
      await compose.waitFor({ state: 'detached' });
    }

    /** Opens the newest message of B's Inbox at /decrypt and downloads the named attachment. */
    async function decryptedAttachment(password: string, name: string): Promise<Buffer> {
      const link = await decryptLink(boris.page);
      const { context, page } = await newPage(browser);
      await page.goto(link);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Decrypt' }).click();
      const message = page.getByRole('article', { name: 'Decrypted message' });
      await message.getByRole('heading').first().waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        message.getByRole('link', { name: new RegExp(name) }).click(),
      ]);
      const bytes = await fs.readFile((await download.path())!);
      await context.close();
      return bytes;
    }

    // Attached (and uploaded) first, then Encrypt ticked: sent at once, the file inside the encryption.
    await a.getByRole('button', { name: 'New message' }).first().click();
    const to = compose.getByRole('combobox', { name: 'To', exact: true });
    await to.fill(borisAddress);
    await to.press('Tab');
    await compose.getByLabel('Subject').fill('Attached before encrypting');
    await compose.getByTestId('compose-file-input').setInputFiles([path.join(tmp, file.name)]);
    await expect.poll(() => attachments.locator('[data-status="done"]').count(), { timeout: 30_000 }).toBe(1);
    await encrypt.check();
    const password = await compose.getByRole('textbox', { name: 'Password' }).inputValue();
    await send();
    await expect.poll(() => borisRows.count(), { timeout: 15_000 }).toBe(1);
    expect(sha256(await decryptedAttachment(password, file.name))).toBe(sha256(file.bytes));

    // A forward brings the original's attachment from the server; encrypted, it is fetched back and encrypted too.
    const plan = Buffer.from('Step one: plan.\nStep two: do.\n');
    await smtpTransport(smtpPort).sendMail({
      from: '"Olga Berg" <olga@example.org>',
      to: `${annId}@mailroom.test`,
      subject: 'The plan',
      text: 'See attached.',
      attachments: [{ filename: 'plan.txt', content: plan }],
    });
    await a
      .getByRole('grid', { name: 'Messages' })
      .getByRole('row', { name: /The plan/ })
      .click();
    const reader = a.getByRole('region', { name: 'Message' });
    await reader.getByRole('heading', { name: 'The plan' }).waitFor({ timeout: 15_000 });
    await reader.getByRole('button', { name: 'Forward', exact: true }).click();
    await expect.poll(() => attachments.locator('[data-status="done"]').count(), { timeout: 30_000 }).toBe(1);
    await to.fill(borisAddress);
    await to.press('Tab');
    await encrypt.check();
    const forwardPassword = await compose.getByRole('textbox', { name: 'Password' }).inputValue();
    await send();
    await expect.poll(() => borisRows.count(), { timeout: 15_000 }).toBe(2);
    expect((await decryptedAttachment(forwardPassword, 'plan.txt')).equals(plan)).toBe(true);

    // Attached while encrypting (kept in the browser), then Encrypt ticked off: uploaded, sent in the clear.
    await a.getByRole('button', { name: 'New message' }).first().click();
    await to.fill(borisAddress);
    await to.press('Tab');
    await compose.getByLabel('Subject').fill('Not encrypted after all');
    await encrypt.check();
    await compose.getByTestId('compose-file-input').setInputFiles([path.join(tmp, file.name)]);
    await compose.getByText(file.name).waitFor();
    await encrypt.uncheck();
    await expect.poll(() => attachments.locator('[data-status="done"]').count(), { timeout: 30_000 }).toBe(1);
    await send();
    const plain = borisRows.filter({ hasText: 'Not encrypted after all' });
    await plain.waitFor({ timeout: 15_000 });
    await plain.click();
    const borisReader = boris.page.getByRole('region', { name: 'Message' });
    const [download] = await Promise.all([
      boris.page.waitForEvent('download'),
      borisReader.getByTitle(`Download ${file.name}`).click(),
    ]);
    expect(sha256(await fs.readFile((await download.path())!))).toBe(sha256(file.bytes));
    await ann.context.close();
    await boris.context.close();
  });
});
