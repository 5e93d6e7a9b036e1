import fs from 'node:fs/promises';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { chromiumOptions, repoRoot, spawnServer, type ServerInfo } from './_processes.js';
import { clusterNodes, spawnCluster } from './_cluster.js';

export const screenshotDir = path.join(repoRoot, 'apps/web/e2e/screenshots');

/**
 * The built server the whole run shares (started once by _global-setup.ts). Test files on it keep to users they
 * sign up themselves and to mail of their own, so they pass in any order and next to each other.
 */
export function sharedServer(): ServerInfo {
  return inject('server');
}

/**
 * A server of the test file's own, for a file that needs settings the shared one must not have. In cluster mode
 * (E2E_NODES) a cluster of its own like the shared one (_cluster.ts) when the test is about several processes
 * (`nodes: 'all'`: a reply or a forward sent once whichever node takes it); otherwise one node on the cluster's
 * store (its PostgreSQL and S3) — each node costs a start-up, and the shared cluster already spreads the rest.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { nodes?: 'all' | 'one' } = {},
): Promise<ServerInfo> {
  const { stop, ...info } =
    clusterNodes > 1
      ? await spawnCluster(env, options.nodes === 'all' ? clusterNodes : 1)
      : await spawnServer(env);
  afterAll(stop);
  return info;
}

/** Debian's Chromium through playwright-core, one per test file (a launch takes a few hundred ms). */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch(chromiumOptions);
  afterAll(() => browser.close());
  return browser;
}

export async function newPage(
  browser: Browser,
  viewport = { width: 1440, height: 900 },
  locale = 'en-US',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Signs up a new member at the embedded identity provider and lands in the mail shell. The provider's pages speak
 * the browser's language (en or ru), as the page of a Russian-speaking phone user does. `passport: 'formal'` picks a
 * passport of formal level on the provider's sign-up (SPEC §5: aliases and own domains need it).
 */
export async function signUp(
  page: Page,
  url: string,
  name: string,
  options: { passport?: 'formal' } = {},
): Promise<string> {
  await page.goto(`${url}/auth/wm/login`);
  await page.getByRole('link', { name: /^(Create one|Создать)$/ }).click();
  await page.getByLabel(/^(Name|Имя)$/).fill(name);
  await page.getByLabel(/^(Password|Пароль)$/).fill('correct horse');
  const level = page.getByLabel(/passport/i);
  if (options.passport && (await level.count()) > 0) {
    const choices = await level
      .locator('option')
      .evaluateAll((nodes) =>
        nodes.map((node) => ({ value: (node as HTMLOptionElement).value, text: node.textContent ?? '' })),
      );
    const wanted = new RegExp(options.passport, 'i');
    const choice = choices.find((option) => wanted.test(option.value) || wanted.test(option.text));
    if (choice) await level.selectOption(choice.value);
  }
  await page.getByRole('button', { name: /^(Sign up|Зарегистрироваться)$/ }).click();
  const memberId = (await page.getByTestId('new-member-id').textContent())!.trim();
  await page.getByRole('link', { name: /^(Continue|Продолжить)$/ }).click();
  await page.waitForURL(/\/mail(\/|$)/);
  return memberId;
}

/** Closes the 'Success!' notice a change raises, so it covers nothing. */
export async function closeSuccess(page: Page): Promise<void> {
  const dialog = page.getByTestId('success-dialog');
  if (await dialog.isVisible().catch(() => false))
    await dialog.getByRole('button', { name: /^(Close|Закрыть)$/ }).click();
}

/**
 * A phone-sized (390×844) screenshot of `path` in the member's session of `context`, taken once `wait` says the page is
 * ready.
 */
export async function phoneShot(
  browser: Browser,
  url: string,
  context: BrowserContext,
  path: string,
  name: string,
  wait: (page: Page) => Promise<void>,
): Promise<void> {
  const mobile = await browser.newContext({
    viewport: { width: 390, height: 844 },
    storageState: await context.storageState(),
  });
  const mobilePage = await mobile.newPage();
  await mobilePage.goto(`${url}${path}`);
  await wait(mobilePage);
  await screenshot(mobilePage, name);
  await mobile.close();
}

/** Pays an invoice on the sandbox wallet's page (its pay link), in a tab of the member's own, then closes it. */
export async function payInSandbox(
  context: BrowserContext,
  url: string,
  payUrl: string,
  shot?: string,
): Promise<void> {
  const wallet = await context.newPage();
  await wallet.goto(new URL(payUrl, url).toString());
  if (shot) await screenshot(wallet, shot);
  await wallet
    .getByRole('button', { name: /^(Pay|Оплатить)/ })
    .first()
    .click();
  await wallet.waitForLoadState();
  await wallet.close();
}

/**
 * After an invoice was paid in the sandbox: the sandbox tells the server at once (its webhook) and the screen hears it
 * live, so `row` may turn Active before the member comes back; if not, 'I have already paid' asks the wallet. The
 * button may go between seeing it and clicking it (the live event lands), so a click that finds no button is fine:
 * either way the row must end up Active.
 */
export async function untilActive(row: Locator): Promise<void> {
  const active = row.getByText('Active');
  const heardLive = await active.waitFor({ timeout: 5_000 }).then(
    () => true,
    () => false,
  );
  if (heardLive) return;
  await row
    .getByRole('button', { name: 'I have already paid' })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await active.waitFor({ timeout: 15_000 });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await fs.mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** An SMTP client for the harness's SMTP port: one pooled connection, so many messages cost one handshake. */
export function smtpTransport(smtpPort: number): Transporter {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 1,
    maxMessages: Infinity,
  });
  afterAll(() => transport.close());
  return transport;
}

/**
 * Delivers `count` messages over one SMTP connection, in order (message i is sent before i + 1, so the newest,
 * shown first, is the last one). `make(i)` gives each message's fields, i counting from 1.
 */
export async function deliverMany(
  transport: Transporter,
  count: number,
  make: (i: number) => SendMailOptions,
): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const info = await transport.sendMail(make(i));
    if (!info.accepted?.length) throw new Error(`message ${i} was not accepted: ${info.response}`);
  }
}

/** A folder of the sidebar's tree by its name ("Inbox" matches "Inbox, 3 unread" but not "Inbox archive"). */
export function folderItem(page: Page, name: string) {
  return page
    .getByRole('tree', { name: 'Folders' })
    .getByRole('treeitem', { name: new RegExp(`^${name}(,|$)`) });
}

export interface Relayed {
  from: string;
  to: string[];
  raw: Buffer;
}

/** The relay: a second SMTP server on loopback, no authentication, recording what it accepts. */
export async function startRelaySink() {
  const messages: Relayed[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as net.AddressInfo).port, messages };
}
