import fs from 'node:fs/promises';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { chromiumOptions, repoRoot, spawnServer, type ServerInfo } from './_processes.js';

export const screenshotDir = path.join(repoRoot, 'apps/web/e2e/screenshots');

/**
 * The built server the whole run shares (started once by _global-setup.ts). Test files on it keep to users they
 * sign up themselves and to mail of their own, so they pass in any order and next to each other.
 */
export function sharedServer(): ServerInfo {
  return inject('server');
}

/** A server of the test file's own, for a file that needs settings the shared one must not have. */
export async function startServer(env: Record<string, string> = {}): Promise<ServerInfo> {
  const { stop, ...info } = await spawnServer(env);
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
 * the browser's language (en or ru), as the page of a Russian-speaking phone user does.
 */
export async function signUp(page: Page, url: string, name: string): Promise<string> {
  await page.goto(`${url}/auth/wm/login`);
  await page.getByRole('link', { name: /^(Create one|Создать)$/ }).click();
  await page.getByLabel(/^(Name|Имя)$/).fill(name);
  await page.getByLabel(/^(Password|Пароль)$/).fill('correct horse');
  await page.getByRole('button', { name: /^(Sign up|Зарегистрироваться)$/ }).click();
  const memberId = (await page.getByTestId('new-member-id').textContent())!.trim();
  await page.getByRole('link', { name: /^(Continue|Продолжить)$/ }).click();
  await page.waitForURL(/\/mail(\/|$)/);
  return memberId;
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
    if (info.accepted.length === 0) throw new Error(`message ${i} was not accepted: ${info.response}`);
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
