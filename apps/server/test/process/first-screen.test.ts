import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_ELEMENT_ID, type FirstScreenData } from '@mailroom/protocol';
import { createTestApp, signUpAndSignIn, type Browser } from '../_util.js';
import { deliverTestMessage } from '../_mail.js';
import { systemFolder } from '../../src/mailbox/index.js';
import { apiRequest } from '../_client.js';

/**
 * Issue 32, cold first screen: a signed-in browser opening a mail route gets index.html with the answers its first
 * screen asks for (and its language's interface text) in a data block, so the first paint waits for no request after
 * the script. Everyone else gets the page as built.
 */
const webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-web-'));
afterAll(() => fs.rm(webDist, { recursive: true, force: true }));
await fs.mkdir(path.join(webDist, 'texts'));
const html =
  '<!doctype html><html><head><script type="module" src="/assets/index-x.js"></script></head>' +
  '<body><div id="root"></div></body></html>';
await fs.writeFile(path.join(webDist, 'index.html'), html);
await fs.writeFile(path.join(webDist, 'texts/en.json'), JSON.stringify({ mail: { inbox: 'Inbox' } }));
await fs.writeFile(path.join(webDist, 'texts/ru.json'), JSON.stringify({ mail: { inbox: 'Входящие' } }));
const { app, db, blobs } = await createTestApp({ env: { WEB_DIST_DIR: webDist } });

const { browser } = await signUpAndSignIn(app, 'Ann Lee');
const { email } = (await apiRequest(browser, 'account')).json() as { email: string };
const { id: accountId } = await db
  .selectFrom('accounts')
  .select('id')
  .where('email', '=', email)
  .executeTakeFirstOrThrow();
const inbox = (await systemFolder(db, accountId, 'inbox')).id;
// A subject that would end a careless script block, and the two separators JavaScript once read as line ends.
const hostile = '</script><script>alert(1)</script><!-- \u2028\u2029';
await deliverTestMessage(db, blobs, accountId, {
  from: 'a@example.org',
  to: email,
  subject: hostile,
  text: 'x',
});

const page = (user: Browser | null, url: string, headers: Record<string, string> = {}) =>
  user
    ? user.get(url, { accept: 'text/html', ...headers })
    : app.inject({ url, headers: { host: 'mailroom.localhost', accept: 'text/html', ...headers } });

function dataOf(body: string): FirstScreenData | null {
  const blocks = [...body.matchAll(/<script type="application\/json" id="([^"]+)">([^<]*)<\/script>/g)];
  if (blocks.length === 0) return null;
  expect(blocks).toHaveLength(1);
  expect(blocks[0]![1]).toBe(FIRST_SCREEN_ELEMENT_ID);
  return JSON.parse(blocks[0]![2]!) as FirstScreenData;
}

describe('the first screen in index.html', () => {
  it('carries what /mail shows first, each answer as the API gives it, never cached', async () => {
    const response = await page(browser, '/mail');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(String(response.headers.vary)).toMatch(/cookie/);
    expect(response.headers.etag).toBeUndefined();
    const data = dataOf(response.body)!;
    const list = `/api/v1/messages/folder/${inbox}?a_id=all&page=1&limit=30`;
    expect(Object.keys(data.answers).sort()).toEqual(
      [
        '/api/v1/folders',
        '/api/v1/labels',
        '/api/v1/user/account',
        '/auth/access',
        '/auth/rids',
        list,
      ].sort(),
    );
    const direct = (await browser.get(list)).json() as { messages: { subject: string }[] };
    expect(data.answers[list]!.body).toEqual(direct);
    expect(direct.messages.map((m) => m.subject)).toEqual([hostile]);
    // The API's clock, for the websocket to catch up from (the /auth routes carry none).
    expect(data.answers[list]!.clock).toBeGreaterThan(Date.now() - 60_000);
    expect(data.language).toBe('en');
    expect(data.texts).toEqual({ mail: { inbox: 'Inbox' } });
    // The page around it is the built one.
    expect(response.body.replace(/<script type="application\/json"[^]*?<\/script>/, '')).toBe(html);
  });

  it('cannot be broken out of by the text of a mail', async () => {
    const { body } = await page(browser, '/mail');
    expect(body).not.toContain('</script><script>alert');
    expect(body).not.toContain('<!--');
    expect(body).not.toMatch(/[\u2028\u2029]/);
    expect(body.match(/<script/g)).toHaveLength(2);
    expect(body.match(/<\/script>/g)).toHaveLength(2);
  });

  it('reads the page of a folder route, with its limit, and the text of the language the page will pick', async () => {
    const data = dataOf((await page(browser, `/mail/folder/all/${inbox}/1?limit=5`)).body)!;
    expect(Object.keys(data.answers)).toContain(`/api/v1/messages/folder/${inbox}?a_id=all&page=1&limit=5`);
    const ru = { language: 'ru', texts: { mail: { inbox: 'Входящие' } } };
    expect(
      dataOf((await page(browser, '/mail', { 'accept-language': 'ru-RU,ru;q=0.9' })).body),
    ).toMatchObject(ru);
    expect(dataOf((await page(browser, '/mail?lang=ru')).body)).toMatchObject(ru);
  });

  it('goes out compressed as the browser accepts', async () => {
    const br = await page(browser, '/mail', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(dataOf(zlib.brotliDecompressSync(br.rawPayload).toString())).not.toBeNull();
    const gz = await page(browser, '/mail', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(dataOf(zlib.gunzipSync(gz.rawPayload).toString())).not.toBeNull();
  });

  it('is the page as built for anyone not signed in, and on routes that show no folder', async () => {
    for (const [user, url, headers] of [
      [null, '/mail', {}],
      [null, '/mail', { cookie: 'mr_sid=not-a-session; isLogged=1' }],
      [browser, '/settings/main', {}],
      [browser, '/mail/folder/all/1/1/5', { accept: 'application/json' }],
    ] as const) {
      const response = await page(user, url, headers);
      if (headers.accept === 'application/json') {
        expect(response.statusCode).toBe(404);
        continue;
      }
      expect(response.statusCode, url).toBe(200);
      expect(dataOf(response.body), url).toBeNull();
      expect(response.body.replace(/<script type="application\/json"[^]*?<\/script>/, '')).toBe(html);
    }
  });
});
