import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../_util.js';

/**
 * The history fallback (a full load of /settings/main gets the app's index.html) once answered a bare "404 Not Found":
 * it read index.html from disk at every request, and a build replacing the folder (vite empties it first) left
 * nothing to read, while a request's Range or If-Match made a partial page or an error of it.
 */
const webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-web-'));
afterAll(() => fs.rm(webDist, { recursive: true, force: true }));
await fs.mkdir(path.join(webDist, 'assets'));
const html = `<!doctype html><div id="root"></div>${'<!-- the app -->'.repeat(100)}`;
await fs.writeFile(path.join(webDist, 'index.html'), html);
// What apps/web/scripts/precompress.mjs writes beside it.
await fs.writeFile(path.join(webDist, 'index.html.br'), zlib.brotliCompressSync(html));
await fs.writeFile(path.join(webDist, 'index.html.gz'), zlib.gzipSync(html));
const { app } = await createTestApp({ env: { WEB_DIST_DIR: webDist } });

const load = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { host: 'mailroom.localhost', accept: 'text/html', ...headers } });

describe('the history fallback', () => {
  it('serves the whole app whatever range or precondition the request carries', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { range: 'bytes=0-10' },
      { range: 'bytes=99999-' },
      { 'if-match': '"nope"' },
      { 'if-unmodified-since': new Date(0).toUTCString() },
      { 'accept-encoding': 'identity' },
    ]) {
      const response = await load('/settings/main', headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(200);
      expect(response.body, JSON.stringify(headers)).toBe(html);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('goes out compressed when the browser accepts it, and a revalidation with its ETag gets 304', async () => {
    const br = await load('/settings/main', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(html);
    const gz = await load('/settings/main', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(html);
    const again = await load('/mail', { 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('still answers the app while a build has emptied the folder', async () => {
    for (const name of ['index.html', 'index.html.br', 'index.html.gz'])
      await fs.rm(path.join(webDist, name));
    for (const url of ['/settings/main', '/', '/mail/folder/all/1/1']) {
      const response = await load(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(html);
    }
    const head = await app.inject({
      method: 'HEAD',
      url: '/settings/main',
      headers: { host: 'mailroom.localhost', accept: 'text/html' },
    });
    expect(head.statusCode).toBe(200);
    // A missing built file is still a 404 with a catalogue body, never the app.
    const asset = await load('/assets/gone-1.js', { accept: '*/*' });
    expect(asset.statusCode).toBe(404);
    expect(asset.json().error.meta.i8s).toBe('not_found');
  });
});
