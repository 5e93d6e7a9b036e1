import fs from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Browser, createTestApp, createTestDb, signUpAndSignIn } from './_util.js';
import { ConfigError, loadConfig, settingDocs } from '../src/config.js';

const webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-web-'));
afterAll(() => fs.rm(webDist, { recursive: true, force: true }));
await fs.mkdir(path.join(webDist, 'assets'));
await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
await fs.writeFile(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
// What apps/web/scripts/precompress.mjs writes beside a big asset.
const bigAsset = `export const words = ${JSON.stringify('mail '.repeat(2000))};`;
await fs.writeFile(path.join(webDist, 'assets', 'big-def456.js'), bigAsset);
await fs.writeFile(path.join(webDist, 'assets', 'big-def456.js.br'), zlib.brotliCompressSync(bigAsset));
await fs.writeFile(path.join(webDist, 'assets', 'big-def456.js.gz'), zlib.gzipSync(bigAsset));

const db = await createTestDb();
const { app } = await createTestApp({ db, env: { WEB_DIST_DIR: webDist } });

describe('serving the web app', () => {
  it('deep links load the app (history fallback)', async () => {
    for (const url of ['/mail/folder/all/1/1', '/settings/main', '/about', '/', '/login?noredirect=true']) {
      const response = await new Browser(app).get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toContain('<div id="root">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('an app path whose last segment holds a dot loads the app on reload, and HEAD agrees with GET', async () => {
    for (const url of [
      '/mail/search/invoice/all/01.11.2026/30.11.2026',
      '/settings/collectors/confirm/a@b.c',
      '/mail/folder/all/1/1/x.pdf',
    ]) {
      const response = await new Browser(app).get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<div id="root">');
    }
    const head = await app.inject({
      method: 'HEAD',
      url: '/mail',
      headers: { host: 'mailroom.localhost', accept: 'text/html' },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
  });

  it('hashed assets are cached for good; a missing asset is a 404, not the app', async () => {
    const asset = await new Browser(app).get('/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await new Browser(app).get('/assets/missing-1.js')).statusCode).toBe(404);
  });

  it('assets go out compressed when the browser accepts it, and plain when it does not', async () => {
    const br = await app.inject({
      url: '/assets/big-def456.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(bigAsset);

    const gz = await app.inject({ url: '/assets/big-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bigAsset);

    const plain = await app.inject({
      url: '/assets/big-def456.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bigAsset);
  });

  it('security headers: CSP with frame-ancestors, nosniff, referrer policy', async () => {
    const response = await new Browser(app).get('/mail', { accept: 'text/html' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('embedding in named host pages', () => {
  it('FRAME_ANCESTORS allows those hosts only and makes cookies SameSite=None; Secure; Partitioned', async () => {
    const { app: framed } = await createTestApp({
      db,
      env: { FRAME_ANCESTORS: 'https://host.example https://other.example/x' },
    });
    const { browser } = await signUpAndSignIn(framed);
    void browser;
    const response = await new Browser(framed).get('/auth/wm/login');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self' https://host.example https://other.example");
    expect(response.headers['x-frame-options']).toBeUndefined();
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toContain('SameSite=None');
    expect(setCookie).toContain('Secure');
    expect(setCookie).toContain('Partitioned');
  });
});

describe('configuration', () => {
  it('defaults: HTTP 8080, SMTP 2525, ./data, mailroom.test, embedded IdP', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.smtpPort).toBe(2525);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(loadConfig({ INIT_CWD: '/srv/mailroom' }).dataDir).toBe('/srv/mailroom/data');
    expect(config.mailDomain).toBe('mailroom.test');
    expect(config.publicUrl).toBe('http://localhost:8080');
    expect(config.oidc.issuer).toBeUndefined();
    expect(config.oidc.memberIdClaim).toBe('member_id');
  });

  const invalid: [string, string][] = [
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['SMTP_PORT', '-1'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['MAIL_DOMAIN', 'not a domain'],
    ['PUBLIC_URL', 'ftp://x'],
    ['OIDC_ISSUER', 'nope'],
    ['SMTP_RELAY_URL', 'http://relay'],
    ['FRAME_ANCESTORS', 'javascript:alert(1)'],
    ['LOG_LEVEL', 'loud'],
  ];
  for (const [name, value] of invalid) {
    it(`an invalid ${name} stops start-up with a one-line message naming it`, () => {
      expect(() => loadConfig({ [name]: value })).toThrowError(ConfigError);
      try {
        loadConfig({ [name]: value });
      } catch (err) {
        expect((err as Error).message).toContain(name);
        expect((err as Error).message).not.toContain('\n');
      }
    });
  }

  it('OIDC_ISSUER without OIDC_CLIENT_SECRET is refused', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://sso.example' })).toThrowError(/OIDC_CLIENT_SECRET/);
  });

  it('the README documents every setting', async () => {
    const readme = await fs.readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(settingDocs)) expect(readme, name).toContain(`\`${name}\``);
  });
});

describe('rate limits on sign-in routes', () => {
  it('too many sign-in attempts from one address get 429 too_many_requests', async () => {
    const { app: limited } = await createTestApp({ db, env: { AUTH_RATE_LIMIT: '3' } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (
          await new Browser(limited).request('POST', '/auth/pw/login', {
            json: { email: 'a@b.cd', password: 'x' },
          })
        ).statusCode,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const logins: number[] = [];
    for (let i = 0; i < 4; i++) logins.push((await new Browser(limited).get('/auth/wm/login')).statusCode);
    expect(logins).toEqual([302, 302, 302, 429]);
    const refused = await new Browser(limited).get('/auth/wm/login');
    expect(refused.json().error.meta).toEqual({ code: 429, i8s: 'too_many_requests' });
  });
});

describe('a NUL character in any field of a request', () => {
  it('is refused with invalid_request_params, never a 500', async () => {
    const { app } = await createTestApp();
    const browser = new Browser(app);
    const pw = await browser.request('POST', '/auth/pw/login', {
      json: { email: 'desk\u0000@mailroom.test', password: 'x' },
    });
    expect(pw.statusCode).toBe(400);
    expect(pw.json().error.meta.i8s).toBe('invalid_request_params');
    const { browser: ann } = await signUpAndSignIn(app, 'Nul Tester');
    for (const [url, json] of [
      ['/api/v1/labels', { label: { name: 'bad\u0000name', color: '#e66465' } }],
      ['/api/v1/messages/search', { text: 'a\u0000b' }],
    ] as const) {
      const response = await ann.request('POST', url, { json });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.meta.i8s, url).toBe('invalid_request_params');
    }
    const query = await ann.request('GET', '/api/v1/messages?message_id=a%00b');
    expect(query.statusCode).toBe(400);
  });
});

describe('what the HTTP parser and the router refuse', () => {
  it('a bad URL, an overlong path parameter, overlong headers or a broken request get a catalogue 400', async () => {
    const { app: served } = await createTestApp();
    await served.listen({ port: 0, host: '127.0.0.1' });
    afterAll(() => served.close());
    const { port } = served.server.address() as AddressInfo;
    const [name] = await signUpAndSignIn(served, 'Long Paths').then(({ browser }) => [...browser.cookies]);
    const cookie = `${name![0]}=${name![1]}`;
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const answers = {
      'a 10,000-character path parameter': await raw(
        `GET /api/v1/messages/${'x'.repeat(10_000)}/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
      ),
      'a 20,000-character query': await raw(
        `GET /api/v1/folders?q=${'y'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      ),
      'a header too big': await raw(
        `GET /api/v1/folders HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'z'.repeat(20_000)}\r\n\r\n`,
      ),
      'a broken escape in the path': await raw(
        `GET /api/v1/folders/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      ),
      'a request line that is not HTTP': await raw(`HELLO\r\n\r\n`),
    };
    for (const [what, answer] of Object.entries(answers)) {
      const [head, body] = answer.split('\r\n\r\n');
      expect(head, what).toMatch(/^HTTP\/1\.1 400 /);
      expect(head, what).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(body!), what).toEqual({
        error: { message: 'Invalid request parameters', meta: { code: 400, i8s: 'invalid_request_params' } },
      });
    }
  });
});
