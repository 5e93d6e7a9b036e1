import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Browser, cleanup, freshPostgresDatabase, signUpAndSignIn, testConfig } from '../_util.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { openDatabase, type Db } from '../../src/core/db/index.js';
import { appInvoicePurposes, buildApp } from '../../src/app.js';
import { openWalletGateway } from '../../src/wallet/index.js';
import { deriveSecrets, loadSecrets } from '../../src/core/secrets.js';
import { openBlobStore } from '../../src/core/blobs/index.js';
import { InProcessEventBus } from '../../src/core/events/index.js';
import { ImageUrlSigner } from '../../src/mail/image-proxy/index.js';
import { deleteExpiredRateLimits } from '../../src/http/rate-limits.repository.js';
import { apiRequest } from '../_client.js';

const serverUrl = process.env.DATABASE_URL;
const KEY_A = 'a'.repeat(20) + randomBytes(16).toString('base64url');
const KEY_B = 'b'.repeat(20) + randomBytes(16).toString('base64url');

describe('SECRET_KEY settings', () => {
  it('refuses a SECRET_KEY shorter than 32 characters, naming it and not showing it', () => {
    const short = 'x'.repeat(31);
    expect(() => loadConfig({ SECRET_KEY: short })).toThrowError(ConfigError);
    expect(() => loadConfig({ SECRET_KEY: short })).toThrowError(/^Invalid setting SECRET_KEY: .*32/);
    try {
      loadConfig({ SECRET_KEY: short });
    } catch (err) {
      expect((err as Error).message).not.toContain(short);
      expect((err as Error).message).not.toContain('\n');
    }
    expect(loadConfig({ SECRET_KEY: 'x'.repeat(32) }).secretKey).toBe('x'.repeat(32));
    expect(loadConfig({}).secretKey).toBeUndefined();
  });

  it('reads SECRET_KEY_FILE, without its trailing newline', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-secret-'));
    cleanup(() => fs.rm(dir, { recursive: true, force: true }));
    await fs.writeFile(path.join(dir, 'key'), `${KEY_A}\n`);
    expect(loadConfig({ SECRET_KEY_FILE: path.join(dir, 'key') }).secretKey).toBe(KEY_A);
    // Relative to the folder npm was started from, like the other paths.
    expect(loadConfig({ SECRET_KEY_FILE: 'key', INIT_CWD: dir }).secretKey).toBe(KEY_A);

    await fs.writeFile(path.join(dir, 'short'), 'too short\n');
    expect(() => loadConfig({ SECRET_KEY_FILE: path.join(dir, 'short') })).toThrowError(
      /^Invalid setting SECRET_KEY_FILE: .*32/,
    );
    expect(() => loadConfig({ SECRET_KEY_FILE: path.join(dir, 'missing') })).toThrowError(
      /^Invalid setting SECRET_KEY_FILE=.*ENOENT/,
    );
    expect(() => loadConfig({ SECRET_KEY: KEY_A, SECRET_KEY_FILE: path.join(dir, 'key') })).toThrowError(
      /^Invalid setting SECRET_KEY_FILE: set SECRET_KEY or SECRET_KEY_FILE, not both/,
    );
  });

  it('derives every key from SECRET_KEY, each under its own label', () => {
    const a = deriveSecrets(KEY_A);
    expect(deriveSecrets(KEY_A)).toEqual(a);
    const values = [
      a.cookieSecret,
      a.idpCookieKeys[0],
      a.idpClientSecret,
      a.imageProxySecret,
      a.decryptParamsSecret,
    ];
    expect(new Set(values).size).toBe(5);
    expect(deriveSecrets(KEY_B).cookieSecret).not.toBe(a.cookieSecret);
  });

  it('without SECRET_KEY, generates keys once under DATA_DIR (mode 0600)', async () => {
    const config = await testConfig();
    const db = {} as Db; // not used without SECRET_KEY
    const first = await loadSecrets(config, db);
    const stat = await fs.stat(path.join(config.dataDir, 'secrets.json'));
    expect(stat.mode & 0o777).toBe(0o600);
    expect(await loadSecrets(config, db)).toEqual(first);
    expect(first.imageProxySecret).toBe(first.cookieSecret);
  });
});

/** A fresh database on the DATABASE_URL server, shared by the "processes" of one test. */
const freshDatabase = () => freshPostgresDatabase(serverUrl!);

/** One server "process": its own config, DATA_DIR and database pool, keys as main.ts loads them. */
async function startProcess(url: string, env: Record<string, string>) {
  const config = await testConfig({ DATABASE_URL: url, ...env });
  const db = await openDatabase({ kind: 'postgres', url });
  cleanup(() => db.destroy());
  const secrets = await loadSecrets(config, db);
  const blobs = await openBlobStore(db, path.join(config.dataDir, 'blobs'), config.blobs.s3);
  const events = new InProcessEventBus();
  const app = await buildApp(
    {
      config,
      db,
      secrets,
      blobs,
      events,
      wallet: openWalletGateway(config, db),
      invoicePurposes: appInvoicePurposes(events),
    },
    { logger: false },
  );
  cleanup(() => app.close());
  return app;
}

/** Sends each request to the next instance in turn, like a round-robin load balancer. */
function roundRobin(...apps: FastifyInstance[]): FastifyInstance {
  let next = 0;
  return { inject: (opts: InjectOptions) => apps[next++ % apps.length]!.inject(opts) } as FastifyInstance;
}

describe.skipIf(!serverUrl)('several processes on one PostgreSQL database', () => {
  it('with one SECRET_KEY, each accepts what the other signed: sign-in, cookies, image URLs', async () => {
    const { url, db } = await freshDatabase();
    const a = await startProcess(url, { SECRET_KEY: KEY_A });
    const b = await startProcess(url, { SECRET_KEY: KEY_A });

    // The same keys; the IdP signing key is the one the first process stored, encrypted.
    expect(b.deps.secrets).toEqual(a.deps.secrets);
    expect(a.deps.secrets.idpSigningKey.kid).toEqual(expect.any(String));
    const stored = await db.selectFrom('server_keys').selectAll().execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.value).not.toContain(String(a.deps.secrets.idpSigningKey.d));
    expect(stored[0]!.value).not.toContain('RS256');

    // A whole single sign-on, every request going to the other process than the one before.
    const { browser } = await signUpAndSignIn(roundRobin(a, b));
    const onB = new Browser(b);
    for (const [name, value] of browser.cookies) onB.cookies.set(name, value);
    expect((await apiRequest(onB, 'user')).statusCode).toBe(200);
    const onA = new Browser(a);
    for (const [name, value] of browser.cookies) onA.cookies.set(name, value);
    expect((await apiRequest(onA, 'user')).statusCode).toBe(200);

    // Signed cookies (the sign-in flow cookie) and image-proxy URLs signed by A verify on B.
    expect(b.unsignCookie(a.signCookie('flow')).valid).toBe(true);
    const remote = 'http://127.0.0.1:9/pixel.png';
    const signedByA = new ImageUrlSigner(a.deps.secrets.imageProxySecret).proxyUrl(remote);
    const passed = await onB.get(signedByA);
    expect(passed.statusCode).not.toBe(403);
    expect(passed.json().error.meta.i8s).toBe('image_unavailable');
    const forged = await onB.get(signedByA.replace(/sig=[^&]+/, 'sig=' + 'A'.repeat(43)));
    expect(forged.statusCode).toBe(403);
  });

  it('with different SECRET_KEYs, the other process refuses what one signed', async () => {
    const { url } = await freshDatabase();
    const a = await startProcess(url, { SECRET_KEY: KEY_A });
    const b = await startProcess(url, { SECRET_KEY: KEY_B });
    expect(b.unsignCookie(a.signCookie('flow')).valid).toBe(false);
    // Each SECRET_KEY has its own IdP signing key in the database.
    expect(b.deps.secrets.idpSigningKey.kid).not.toBe(a.deps.secrets.idpSigningKey.kid);
    await expect(signUpAndSignIn(roundRobin(a, b))).rejects.toThrow();

    const { browser } = await signUpAndSignIn(a);
    const signedByA = new ImageUrlSigner(a.deps.secrets.imageProxySecret).proxyUrl(
      'http://127.0.0.1:9/x.png',
    );
    const onB = new Browser(b);
    for (const [name, value] of browser.cookies) onB.cookies.set(name, value);
    expect((await onB.get(signedByA)).statusCode).toBe(403);
  });

  it('counts rate limits across processes', async () => {
    const { url, db } = await freshDatabase();
    const env = { SECRET_KEY: KEY_A, AUTH_RATE_LIMIT: '3' };
    const processes = [await startProcess(url, env), await startProcess(url, env)];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const app = processes[i % 2]!;
      const response = await apiRequest(new Browser(app), 'passwordSignIn', {
        body: { email: 'a@b.cd', password: 'x' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another route counts apart.
    expect((await apiRequest(new Browser(processes[1]!), 'signIn')).statusCode).toBe(302);

    // A window that has ended starts over, and the sweep deletes it.
    await db
      .updateTable('rate_limits')
      .set({ reset_at: new Date(Date.now() - 1000) })
      .execute();
    const again = await apiRequest(new Browser(processes[0]!), 'passwordSignIn', {
      body: { email: 'a@b.cd', password: 'x' },
    });
    expect(again.statusCode).toBe(401);
    expect(await deleteExpiredRateLimits(db, 1000)).toBe(1);
    expect(await db.selectFrom('rate_limits').select('count').execute()).toEqual([{ count: 1 }]);
  });
});
