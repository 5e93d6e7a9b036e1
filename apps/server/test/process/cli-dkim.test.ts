import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDb, testConfig } from '../_util.js';
import { mailroom as run } from '../_cli.js';
import { startAdminSocket } from '../../src/admin/admin-socket.js';
import { setDkimKey } from '../../src/addresses/index.js';

function mailroom(args: string[], env: Record<string, string>) {
  return run(args, env, 60_000).catch((err: { code: number; stdout: string; stderr: string }) => err);
}

const pem = (key: { export(o: { type: 'pkcs8'; format: 'pem' }): string | Buffer }) =>
  key.export({ type: 'pkcs8', format: 'pem' }).toString();
const spkiBase64 = (key: KeyObject | string) =>
  (typeof key === 'string' ? createPublicKey(key) : key)
    .export({ type: 'spki', format: 'der' })
    .toString('base64');

const db = await createTestDb();

async function storedKey(domain: string) {
  return db.selectFrom('dkim_keys').selectAll().where('domain', '=', domain).executeTakeFirst();
}

describe('mailroom dkim set', () => {
  it('installs a key file through the running server and prints the TXT record that matches it', async () => {
    const config = await testConfig();
    const admin = await startAdminSocket(db, config);
    try {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      // PKCS#1 ("BEGIN RSA PRIVATE KEY"), as openssl genrsa writes it, is accepted too.
      const keyFile = path.join(config.dataDir, 'dkim.pem');
      await fs.writeFile(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }));
      const out = await mailroom(
        ['dkim', 'set', '--domain', 'Mailroom.Test', '--selector', 'mail2026', '--key-file', keyFile],
        { DATA_DIR: config.dataDir },
      );
      expect(out).not.toHaveProperty('code');
      const { stdout } = out as { stdout: string };
      expect(stdout).toContain('name:  mail2026._domainkey.mailroom.test');
      expect(stdout).toContain(`value: v=DKIM1; k=rsa; p=${spkiBase64(publicKey)}\n`);
      const row = await storedKey('mailroom.test');
      expect(row).toMatchObject({ selector: 'mail2026' });
      expect(row!.private_key).toContain('BEGIN PRIVATE KEY');
      expect(spkiBase64(row!.private_key)).toBe(spkiBase64(publicKey));

      // --generate replaces the domain's key; the printed record is the new key's.
      const generated = await mailroom(
        ['dkim', 'set', '--domain', 'mailroom.test', '--selector', 'mail2027', '--generate'],
        { DATA_DIR: config.dataDir },
      );
      const value = /value: (v=DKIM1; k=rsa; p=\S+)/.exec((generated as { stdout: string }).stdout)?.[1];
      const replaced = await storedKey('mailroom.test');
      expect(replaced).toMatchObject({ selector: 'mail2027' });
      expect(value).toBe(`v=DKIM1; k=rsa; p=${spkiBase64(replaced!.private_key)}`);
      expect(spkiBase64(replaced!.private_key)).not.toBe(spkiBase64(publicKey));
      expect(await db.selectFrom('dkim_keys').select('domain').execute()).toHaveLength(1);

      // A file that is no private key is refused by the server with a clear reason; nothing changes.
      await fs.writeFile(keyFile, publicKey.export({ type: 'spki', format: 'pem' }));
      const bad = await mailroom(
        ['dkim', 'set', '--domain', 'mailroom.test', '--selector', 'x', '--key-file', keyFile],
        { DATA_DIR: config.dataDir },
      );
      expect(bad).toMatchObject({ code: 1 });
      expect((bad as { stderr: string }).stderr).toContain(
        'invalid_params: The key is not a PEM private key',
      );
      expect(await storedKey('mailroom.test')).toMatchObject({ selector: 'mail2027' });
    } finally {
      await admin.close();
      await db.deleteFrom('dkim_keys').execute();
    }
  });

  it('explains the usage without a key source or with two, and names a key file it cannot read', async () => {
    const config = await testConfig();
    const none = await mailroom(['dkim', 'set', '--domain', 'a.test', '--selector', 's'], {
      DATA_DIR: config.dataDir,
    });
    expect(none).toMatchObject({ code: 2 });
    expect((none as { stderr: string }).stderr).toContain('--key-file key.pem | --generate');
    const missing = await mailroom(
      ['dkim', 'set', '--domain', 'a.test', '--selector', 's', '--key-file', '/nonexistent/key.pem'],
      { DATA_DIR: config.dataDir },
    );
    expect(missing).toMatchObject({ code: 1 });
    expect((missing as { stderr: string }).stderr).toContain(
      'Cannot read the key file /nonexistent/key.pem: ENOENT',
    );
  });

  it('refuses a malformed domain or selector, a non-RSA key and a short RSA key, each saying why', async () => {
    const rsa = pem(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const cases: [Parameters<typeof setDkimKey>[1], string][] = [
      [{ domain: 'localhost', selector: 's', privateKeyPem: rsa }, 'Invalid domain "localhost"'],
      [{ domain: 'bad_domain.test', selector: 's', privateKeyPem: rsa }, 'Invalid domain'],
      [{ domain: '-x.test', selector: 's', privateKeyPem: rsa }, 'Invalid domain'],
      [{ domain: 'a.test', selector: 'mail 2026', privateKeyPem: rsa }, 'Invalid selector "mail 2026"'],
      [{ domain: 'a.test', selector: 'x._domainkey', privateKeyPem: rsa }, 'Invalid selector'],
      [{ domain: 'a.test', selector: '', privateKeyPem: rsa }, 'Invalid selector'],
      [{ domain: 'a.test', selector: 's', privateKeyPem: 'not a key' }, 'not a PEM private key'],
      [
        { domain: 'a.test', selector: 's', privateKeyPem: pem(generateKeyPairSync('ed25519').privateKey) },
        'must be an RSA key, not ed25519',
      ],
      [
        {
          domain: 'a.test',
          selector: 's',
          privateKeyPem: pem(generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey),
        },
        'has 512 bits; at least 1024',
      ],
    ];
    for (const [input, message] of cases) {
      await expect(setDkimKey(db, input)).rejects.toMatchObject({
        code: 'invalid_params',
        message: expect.stringContaining(message),
      });
    }
    expect(await db.selectFrom('dkim_keys').select('domain').execute()).toEqual([]);
    // A selector of several labels and a trailing-dot domain are fine.
    await expect(
      setDkimKey(db, { domain: 'a.test.', selector: 'eu.mail', privateKeyPem: rsa }),
    ).resolves.toMatchObject({
      domain: 'a.test',
      dnsName: 'eu.mail._domainkey.a.test',
    });
  });
});
