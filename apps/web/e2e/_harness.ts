import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';

const repoRoot = new URL('../../../', import.meta.url).pathname;
export const screenshotDir = path.join(repoRoot, 'apps/web/e2e/screenshots');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts the built server (`apps/server/dist/main.js`) with a fresh data folder, as `npm start` would. */
export async function startServer(env: Record<string, string> = {}) {
  const port = await freePort();
  const smtpPort = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-e2e-'));
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      SMTP_PORT: String(smtpPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  afterAll(async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok && (await accepts(smtpPort))) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, dataDir, smtpPort };
}

/** Debian's Chromium through playwright-core (no browser downloads here). */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
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

/** Signs up a new member at the embedded identity provider and lands in the mail shell. */
export async function signUp(page: Page, url: string, name: string): Promise<string> {
  await page.goto(`${url}/auth/wm/login`);
  await page.getByRole('link', { name: 'Create one' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill('correct horse');
  await page.getByRole('button', { name: 'Sign up' }).click();
  const memberId = (await page.getByTestId('new-member-id').textContent())!.trim();
  await page.getByRole('link', { name: 'Continue' }).click();
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
