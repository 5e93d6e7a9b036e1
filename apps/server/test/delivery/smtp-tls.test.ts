import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { createAccount } from '../_mail.js';
import { rawSession, startTestIngest } from '../_smtp.js';
import { cleanup } from '../_util.js';
import { loadConfig } from '../../src/config.js';

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A throw-away self-signed certificate for the loopback server. */
async function selfSigned(): Promise<{ cert: string; key: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-tls-'));
  cleanup(() => fs.rm(dir, { recursive: true, force: true }));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=mailroom.test',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

describe.skipIf(!hasOpenssl())('STARTTLS', () => {
  it('is offered when a certificate is configured, and mail sent over it is stored', async () => {
    const { cert, key } = await selfSigned();
    const { db, port } = await startTestIngest({ env: { SMTP_TLS_CERT: cert, SMTP_TLS_KEY: key } });
    const account = await createAccount(db);
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      requireTLS: true,
      tls: { rejectUnauthorized: false },
    });
    cleanup(() => transport.close());
    const info = await transport.sendMail({
      from: 'a@example.org',
      to: account.email,
      subject: 'over TLS',
      text: 'x',
    });
    expect(info.response).toMatch(/^250 /);
    const row = await db
      .selectFrom('messages')
      .select('subject')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(row.subject).toBe('over TLS');
  });

  it('is not offered without a certificate, and AUTH never is', async () => {
    const { port } = await startTestIngest();
    const [, ehlo] = await rawSession(port, ['EHLO client.example\r\n']);
    expect(ehlo!.text).not.toMatch(/STARTTLS/);
    expect(ehlo!.text).not.toMatch(/AUTH/);
    expect(ehlo!.text).toMatch(/PIPELINING/);
  });
});

describe('ingest settings', () => {
  it('a certificate without its key, or a nonsense size limit, stops start-up naming the variable', () => {
    expect(() => loadConfig({ SMTP_TLS_CERT: '/x/cert.pem' })).toThrow(/SMTP_TLS_KEY/);
    expect(() => loadConfig({ MAX_MESSAGE_SIZE: 'big' })).toThrow(/MAX_MESSAGE_SIZE/);
    expect(() => loadConfig({ LMTP_PORT: '99999' })).toThrow(/LMTP_PORT/);
    expect(loadConfig({})).toMatchObject({
      maxMessageSize: 70_000_000,
      lmtpPort: undefined,
      smtpTls: undefined,
    });
  });
});
