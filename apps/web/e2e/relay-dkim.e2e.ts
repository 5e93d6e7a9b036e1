import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { DKIMVerifyResult, DNSResolver } from 'mailauth';
import { simpleParser } from 'mailparser';
import {
  launchBrowser,
  newPage,
  screenshot,
  signUp,
  smtpTransport,
  startRelaySink,
  startServer,
} from './_harness.js';

// mailauth's main entry loads its BIMI module, whose undici needs Node 22; the DKIM verifier alone runs on Node 20.
const { dkimVerify } = createRequire(import.meta.url)('mailauth/lib/dkim/verify.js') as {
  dkimVerify: (raw: Buffer, opts: { resolver: DNSResolver }) => Promise<DKIMVerifyResult>;
};

const sink = await startRelaySink();
// A short poll so the outbox job picks the forward up quickly and would show a second delivery within the wait below.
// Every node of the cluster: the forward leaves once whichever node claims the outbox row.
const { url, dataDir, adminDataDir, smtpPort } = await startServer(
  {
    SMTP_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    OUTBOX_POLL_MS: '200',
  },
  { nodes: 'all' },
);
const browser = await launchBrowser();

const repoRoot = new URL('../../../', import.meta.url).pathname;
const run = promisify(execFile);

/** The operator command of the built server, talking to the running one over DATA_DIR/admin.sock (a cluster's first node's). */
async function mailroom(args: string[]) {
  const { DATABASE_URL: _omit, ...env } = process.env;
  return run(process.execPath, [path.join(repoRoot, 'apps/server/dist/cli.js'), ...args], {
    env: { ...env, DATA_DIR: adminDataDir ?? dataDir, LOG_LEVEL: 'silent' },
    timeout: 60_000,
  });
}

describe('forwarding to an outside address through the relay', () => {
  it('the relay receives the forward once, with its attachment and a DKIM signature that verifies against the installed key', async () => {
    // The operator installs a key for the mail domain; the record printed is what DNS would publish.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = path.join(dataDir, 'dkim-e2e.pem');
    await fs.writeFile(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const { stdout } = await mailroom([
      'dkim',
      'set',
      '--domain',
      'mailroom.test',
      '--selector',
      'e2e2026',
      '--key-file',
      keyFile,
    ]);
    const published = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    expect(stdout).toContain('name:  e2e2026._domainkey.mailroom.test');
    expect(stdout).toContain(`value: ${published}`);

    // A receives a message with an attachment over SMTP.
    const { context, page } = await newPage(browser);
    const memberId = await signUp(page, url, 'Ann Lee');
    const address = `${memberId}@mailroom.test`;
    const attachment = { filename: 'договор-7.pdf', content: Buffer.from('%PDF-1.4\n% contract 7\n') };
    const subject = 'Договор №7 на подпись';
    await smtpTransport(smtpPort).sendMail({
      from: '"Bob Sender" <bob@example.org>',
      to: address,
      subject,
      text: 'Посмотрите, пожалуйста, договор.',
      attachments: [{ ...attachment, contentType: 'application/pdf' }],
    });
    const row = page.getByRole('grid', { name: 'Messages' }).getByRole('row', { name: new RegExp(subject) });
    await row.waitFor({ timeout: 15_000 });
    await row.click();
    const reader = page.getByRole('region', { name: 'Message' });
    await reader.getByRole('heading', { name: subject }).waitFor();

    // ...and forwards it outside (example.test is not hosted here) from the compose window.
    await reader.getByRole('button', { name: 'Forward', exact: true }).click();
    const forward = page.getByTestId('compose-window');
    await expect(forward.getByLabel('Subject').inputValue()).resolves.toBe(`Fwd: ${subject}`);
    await expect.poll(() => forward.locator('[data-status="done"]').count(), { timeout: 10_000 }).toBe(1);
    const to = forward.getByRole('combobox', { name: 'To', exact: true });
    await to.fill('someone@example.test');
    await to.press('Tab');
    await forward.getByRole('listitem').filter({ hasText: 'someone@example.test' }).waitFor();
    await screenshot(page, 'compose-forward-relay-desktop-en');
    await forward.getByRole('button', { name: 'Send' }).click();
    const notice = page.locator('[data-testid="success-dialog"], [data-testid="error-dialog"]');
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toContain('Message sent.');

    // The relay gets exactly one message: it waits for the first, then for several more outbox polls.
    await expect.poll(() => sink.messages.length, { timeout: 30_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(sink.messages).toHaveLength(1);
    const [relayed] = sink.messages;
    expect(relayed!.from).toBe(address);
    expect(relayed!.to).toEqual(['someone@example.test']);

    // The signature verifies against the published record...
    expect(relayed!.raw.toString()).toMatch(/^DKIM-Signature: .*d=mailroom\.test/);
    const resolver = async (name: string, type: string) => {
      if (type === 'TXT' && name === 'e2e2026._domainkey.mailroom.test') return [[published]];
      throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
    };
    const result = await dkimVerify(relayed!.raw, { resolver });
    expect(result.results[0]?.status.result).toBe('pass');
    expect(result.results[0]?.signingDomain).toBe('mailroom.test');
    expect(result.results[0]?.selector).toBe('e2e2026');
    // ...and not against another key, so the check above is a real one.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    const wrong = await dkimVerify(relayed!.raw, {
      resolver: async (name: string, type: string) =>
        type === 'TXT' && name === 'e2e2026._domainkey.mailroom.test'
          ? [[`v=DKIM1; k=rsa; p=${other.export({ type: 'spki', format: 'der' }).toString('base64')}`]]
          : [],
    });
    expect(wrong.results[0]?.status.result).toBe('fail');

    // The forwarded attachment came along byte for byte.
    const parsed = await simpleParser(relayed!.raw);
    expect(parsed.subject).toBe(`Fwd: ${subject}`);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toContain('someone@example.test');
    expect(parsed.attachments.map((a) => a.filename)).toEqual([attachment.filename]);
    expect(parsed.attachments[0]!.content.equals(attachment.content)).toBe(true);
    expect(parsed.text).toContain('Посмотрите, пожалуйста, договор.');
    await context.close();
  });
});
