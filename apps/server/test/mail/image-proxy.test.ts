import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { Mail } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { compose, parse } from '../_sending.js';
import {
  IMAGE_PROXY_USER_AGENT,
  ImageUrlSigner,
  isPublicAddress,
  restoreProxiedImageUrls,
  sniffImageType,
} from '../../src/mail/image-proxy/index.js';
import { api, apiPath } from '../_client.js';

// The smallest valid PNG (1×1).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const MAX = 4096;

interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
}

/** A "remote" image server on a loopback address of its own, recording every request it gets. */
async function recordingServer(host: string, handle: (path: string, response: http.ServerResponse) => void) {
  const hits: Hit[] = [];
  const server = http.createServer((request, response) => {
    hits.push({ path: request.url!, headers: request.headers });
    handle(request.url!, response);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { hits, origin: `http://${host}:${(server.address() as AddressInfo).port}` };
}

// 127.0.0.3 plays a private address the proxy must not reach; its own request log shows whether it did.
const internal = await recordingServer('127.0.0.3', (_path, response) =>
  response.writeHead(200, { 'content-type': 'image/png' }).end(PNG),
);

const remote = await recordingServer('127.0.0.2', (path, response) => {
  const name = path.split('?')[0]!;
  if (name.endsWith('.png')) response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  else if (name === '/page.html') response.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
  else if (name === '/octet-photo')
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(PNG);
  else if (name === '/untyped-photo') {
    // No type at all, and the bytes come in pieces smaller than the sniffed head.
    response.writeHead(200);
    response.write(PNG.subarray(0, 5), () => setTimeout(() => response.end(PNG.subarray(5)), 20));
  } else if (name === '/octet-page')
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end('<html><script>1</script>');
  else if (name === '/octet-tiny')
    response.writeHead(200, { 'content-type': 'application/octet-stream' }).end('GIF');
  else if (name === '/logo.svg')
    response
      .writeHead(200, { 'content-type': 'image/svg+xml' })
      .end('<svg xmlns="http://www.w3.org/2000/svg"/>');
  else if (name === '/big-declared')
    response
      .writeHead(200, { 'content-type': 'image/png', 'content-length': MAX + 1 })
      .end(Buffer.alloc(MAX + 1));
  else if (name === '/big-streamed') {
    // No Content-Length: the proxy only finds out by counting.
    response.writeHead(200, { 'content-type': 'image/png' });
    let sent = 0;
    const more = () => {
      if (sent > MAX * 4) return response.end();
      sent += 1024;
      response.write(Buffer.alloc(1024), () => setTimeout(more, 1));
    };
    more();
  } else if (name === '/silent') {
    // Never answers (until the test server closes).
  } else if (name === '/stalls') {
    // Answers, then stops sending halfway.
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
    response.write(PNG.subarray(0, 10));
  } else if (name === '/to-photo') response.writeHead(302, { location: '/photo.png' }).end();
  else if (name === '/to-internal')
    response.writeHead(302, { location: `${internal.origin}/secret.png` }).end();
  else if (name === '/to-localhost')
    response.writeHead(302, { location: `http://localhost:${new URL(internal.origin).port}/x.png` }).end();
  else if (name === '/to-file') response.writeHead(302, { location: 'file:///etc/passwd' }).end();
  else if (/^\/hop\d$/.test(name))
    response.writeHead(302, { location: `/hop${Number(name.slice(4)) + 1}` }).end();
  else response.writeHead(404).end();
});
const R = remote.origin;

/**
 * A test app whose log is kept: the image proxy answers every failure with one opaque `image_unavailable` (a member
 * must not learn internal names or addresses from it), and the reason goes to the server log only.
 */
async function loggedTestApp(opts: Parameters<typeof createTestApp>[0] = {}) {
  const lines: string[] = [];
  const app = await createTestApp({
    ...opts,
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
  });
  /** Checks the answer says nothing of why, and returns the reason the server logged for it. */
  const failureOf = (response: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) => {
    expect(response.statusCode).toBe(502);
    const { error } = response.json() as { error: { message: string; meta: { i8s: string } } };
    expect(error.meta.i8s).toBe('image_unavailable');
    expect(error.message).toBe('The image could not be loaded');
    const logged = lines
      .map((l) => JSON.parse(l) as { msg: string; detail?: string })
      .findLast((l) => l.msg === 'remote image not served');
    return logged?.detail ?? '';
  };
  return { ...app, lines, failureOf };
}

// Only 127.0.0.2 is let through among the non-public addresses: everything else private stays refused.
const ctx = await loggedTestApp({
  env: { IMAGE_PROXY_ALLOW_PRIVATE: '127.0.0.2', IMAGE_PROXY_MAX_SIZE: String(MAX) },
});
const failureOf = ctx.failureOf;
const ann = await mailUser(ctx, 'Ann Lee');
const signer = new ImageUrlSigner(ctx.app.deps.secrets.cookieSecret);

function proxyGet(user: MailUser, path: string, headers: Record<string, string> = {}) {
  return user.browser.get(path, headers);
}
const viaProxy = (user: MailUser, url: string) => proxyGet(user, signer.proxyUrl(url));
const errorCode = (response: { json(): unknown }) =>
  (response.json() as { error: { meta: { i8s: string } } }).error.meta.i8s;

/** Runs `fn` and returns the requests each recording server got meanwhile. */
async function hitsDuring(fn: () => Promise<unknown>) {
  const [r, i] = [remote.hits.length, internal.hits.length];
  await fn();
  return { remote: remote.hits.slice(r), internal: internal.hits.slice(i) };
}

describe('reading with images shown', () => {
  it('points every remote image at the signed proxy, leaving no remote URL for the browser', async () => {
    const message = await ann.deliver({
      from: 'News <news@example.org>',
      subject: 'Pictures',
      html: `<style>.hero { background: url("${R}/style-bg.png?a=1&b=2") }</style>
        <table background="${R}/table-bg.png"><tr><td>x</td></tr></table>
        <img src="${R}/photo.png" srcset="${R}/photo.png 1x, ${R}/photo-2x.png 2x" alt="photo">
        <div style="background-image: url('${R}/inline-bg.png')">y</div>
        <img src="${R}/pixel.png" width="1" height="1">`,
    });
    const hidden = await api(ann.browser, 'message', {
      params: { folder_id: message.folderId, uid: message.uid },
    });
    expect((hidden.body.message as Mail).images_blocked).toBe(true);
    const { body } = await api(ann.browser, 'message', {
      params: { folder_id: message.folderId, uid: message.uid },
      query: { show_images: 'true' },
    });
    const html = Buffer.from((body.message as Mail).content, 'base64').toString('utf8');
    expect((body.message as Mail).images_blocked).toBe(false);

    const proxied = [...html.matchAll(/\/api\/v1\/image-proxy\?url=[^"' )]+/g)].map((m) =>
      m[0].replaceAll('&amp;', '&'),
    );
    const targets = proxied.map((p) => new URL(p, 'http://x').searchParams.get('url'));
    expect(new Set(targets)).toEqual(
      new Set([
        `${R}/style-bg.png?a=1&b=2`,
        `${R}/table-bg.png`,
        `${R}/photo.png`,
        `${R}/photo-2x.png`,
        `${R}/inline-bg.png`,
      ]),
    );
    // Nothing remote is left outside the proxy URLs (the tracking pixel is gone altogether).
    expect(html.replace(/\/api\/v1\/image-proxy\?url=[^"' )]+/g, '')).not.toMatch(/127\.0\.0\.2|https?:/);

    const hits = await hitsDuring(async () => {
      for (const path of proxied) {
        const response = await proxyGet(ann, path);
        expect(response.statusCode, path).toBe(200);
        expect(response.headers['content-type']).toBe('image/png');
        expect(response.rawPayload.equals(PNG)).toBe(true);
      }
    });
    expect(hits.remote.map((h) => h.path).sort()).toEqual(
      [
        '/inline-bg.png',
        '/photo-2x.png',
        '/photo.png',
        '/photo.png',
        '/style-bg.png?a=1&b=2',
        '/table-bg.png',
      ].sort(),
    );
  });

  it('a reply quoting proxied images sends the original addresses, not ours', async () => {
    const quoted = `<p>Thanks!</p><blockquote><img src="${signer
      .proxyUrl(`${R}/photo.png?x=1&y="2"`)
      .replaceAll('&', '&amp;')}"><div style="background:url(&quot;${signer
      .proxyUrl(`${R}/bg.png`)
      .replaceAll('&', '&amp;')}&quot;)">q</div></blockquote>`;
    const sent = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [ann.email], { content: quoted }),
    });
    expect(sent.status).toBe(200);
    const row = await ctx.db
      .selectFrom('messages')
      .select('blob_hash')
      .where('folder_id', '=', ann.folders.sent)
      .where('uid', '=', sent.body.message.uid)
      .executeTakeFirstOrThrow();
    const mail = await parse(await ctx.blobs.get(row.blob_hash));
    expect(mail.html).not.toContain('image-proxy');
    expect(mail.html).toContain(`src="${R}/photo.png?x=1&amp;y=%222%22"`);
    expect(mail.html).toContain(`url(&quot;${R}/bg.png&quot;)`);
  });
});

describe('the image proxy', () => {
  it('serves a remote image without passing on cookies, Referer or the browser, with safe headers', async () => {
    const hits = await hitsDuring(async () => {
      const response = await proxyGet(ann, signer.proxyUrl(`${R}/photo.png`), {
        referer: 'http://mailroom.localhost/mail/folder/1/7',
        'user-agent': 'Mozilla/5.0 (reader browser)',
        'accept-language': 'ru',
      });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(PNG)).toBe(true);
      expect(response.headers).toMatchObject({
        'content-type': 'image/png',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
        'cache-control': 'private, max-age=3600',
      });
    });
    expect(ann.browser.cookies.size).toBeGreaterThan(0);
    expect(hits.remote).toHaveLength(1);
    const { headers } = hits.remote[0]!;
    expect(headers.cookie).toBeUndefined();
    expect(headers.referer).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
    expect(headers['accept-language']).toBeUndefined();
    expect(headers['user-agent']).toBe(IMAGE_PROXY_USER_AGENT);
  });

  it('follows a redirect, and sends no credentials written in the URL', async () => {
    const hits = await hitsDuring(async () => {
      const response = await viaProxy(ann, `${R.replace('//', '//user:secret@')}/to-photo`);
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(PNG)).toBe(true);
    });
    expect(hits.remote.map((h) => h.path)).toEqual(['/to-photo', '/photo.png']);
    expect(hits.remote.every((h) => h.headers.authorization === undefined)).toBe(true);
  });

  it('refuses a missing, wrong or borrowed signature without fetching anything', async () => {
    const hits = await hitsDuring(async () => {
      const url = `${R}/photo.png`;
      const missing = await proxyGet(ann, apiPath('imageProxy', { query: { url } }));
      expect(missing.statusCode).toBe(400);
      const wrong = await proxyGet(ann, apiPath('imageProxy', { query: { url, sig: 'AAAA' } }));
      expect(wrong.statusCode).toBe(403);
      expect(errorCode(wrong)).toBe('forbidden');
      // A valid signature of another URL.
      const borrowed = await proxyGet(
        ann,
        apiPath('imageProxy', { query: { url: `${R}/other.png`, sig: signer.signature(url) } }),
      );
      expect(borrowed.statusCode).toBe(403);
      // Another server's key signs nothing here.
      const foreign = await proxyGet(ann, new ImageUrlSigner('another secret').proxyUrl(url));
      expect(foreign.statusCode).toBe(403);
    });
    expect(hits.remote).toEqual([]);
  });

  it('needs a session', async () => {
    const response = await ctx.app.inject({ url: signer.proxyUrl(`${R}/photo.png`) });
    expect(response.statusCode).toBe(401);
  });

  it('refuses what is not a raster image: HTML, SVG, a missing image', async () => {
    for (const [path, detail] of [
      ['/page.html', /not an image/],
      ['/logo.svg', /not an image/],
      ['/missing', /answered 404/],
    ] as const) {
      const response = await viaProxy(ann, `${R}${path}`);
      expect(failureOf(response), path).toMatch(detail);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
    }
  });

  it('serves an image labelled application/octet-stream or not labelled at all by what its bytes are', async () => {
    for (const path of ['/octet-photo', '/untyped-photo']) {
      const response = await viaProxy(ann, `${R}${path}`);
      expect(response.statusCode, path).toBe(200);
      expect(response.headers['content-type'], path).toBe('image/png');
      expect(response.rawPayload.equals(PNG), path).toBe(true);
    }
    for (const path of ['/octet-page', '/octet-tiny']) {
      const response = await viaProxy(ann, `${R}${path}`);
      expect(failureOf(response), path).toMatch(/not an image/);
    }
  });

  it('refuses an image declared bigger than the cap, and cuts one off that turns out bigger', async () => {
    const declared = await viaProxy(ann, `${R}/big-declared`);
    expect(failureOf(declared)).toMatch(/larger than 4096/);

    // Streamed without a length: the answer has begun when the cap is passed, so the connection is cut.
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const cookie = [...ann.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const outcome = await new Promise<{ error: string | undefined; bytes: number }>((resolve) => {
      let bytes = 0;
      http
        .get(
          `http://127.0.0.1:${port}${signer.proxyUrl(`${R}/big-streamed`)}`,
          { headers: { cookie, host: 'mailroom.localhost' } },
          (response) => {
            response.on('data', (chunk: Buffer) => (bytes += chunk.length));
            response.on('end', () => resolve({ error: response.complete ? undefined : 'incomplete', bytes }));
            response.on('error', (err) => resolve({ error: err.message, bytes }));
          },
        )
        .on('error', (err) => resolve({ error: err.message, bytes }));
    });
    expect(outcome.error).toBeDefined();
    expect(outcome.bytes).toBeLessThanOrEqual(MAX);
  });

  it('refuses private addresses not allowed: as written, by name, or as a redirect target', async () => {
    const port = new URL(internal.origin).port;
    const hits = await hitsDuring(async () => {
      for (const url of [
        `${internal.origin}/direct.png`,
        `http://localhost:${port}/by-name.png`,
        `http://[::ffff:127.0.0.3]:${port}/mapped.png`,
        `${R}/to-internal`,
        `${R}/to-localhost`,
      ]) {
        expect(failureOf(await viaProxy(ann, url)), url).toMatch(/not a public address/);
      }
      expect(failureOf(await viaProxy(ann, `${R}/to-file`))).toMatch(/file: is not fetched/);
      expect(failureOf(await viaProxy(ann, `${R}/hop0`))).toMatch(/more than 3 redirects/);
    });
    expect(hits.internal).toEqual([]);
    expect(hits.remote.filter((h) => h.path.startsWith('/hop')).map((h) => h.path)).toEqual([
      '/hop0',
      '/hop1',
      '/hop2',
      '/hop3',
    ]);
  });

  it('answers image_unavailable for a signed address it cannot parse', async () => {
    for (const url of ['http://[::1', 'http://exa mple.com/x.png', 'http://%zz/']) {
      expect(failureOf(await viaProxy(ann, url)), url).toMatch(/not a valid address/);
    }
  });

  it('with the default settings, refuses loopback images too', async () => {
    const strict = await loggedTestApp({ db: ctx.db });
    const bob = await mailUser(strict, 'Bo Chen');
    const strictSigner = new ImageUrlSigner(strict.app.deps.secrets.cookieSecret);
    const hits = await hitsDuring(async () => {
      const response = await bob.browser.get(strictSigner.proxyUrl(`${R}/photo.png`));
      expect(strict.failureOf(response)).toMatch(/not a public address/);
    });
    expect(hits.remote).toEqual([]);
  });
});

describe('the request log', () => {
  it('keeps the image proxy path but not which remote image was asked for', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({
      db: ctx.db,
      env: { IMAGE_PROXY_ALLOW_PRIVATE: '127.0.0.2' },
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    const fay = await mailUser(logged, 'Fay Lin');
    const loggedSigner = new ImageUrlSigner(logged.app.deps.secrets.cookieSecret);
    lines.length = 0;
    const response = await fay.browser.get(loggedSigner.proxyUrl(`${R}/private-holiday.png`));
    expect(response.statusCode).toBe(200);
    const requestLines = lines.map((l) => JSON.parse(l) as { msg: string; req?: { url: string } });
    expect(requestLines.find((l) => l.msg === 'incoming request')?.req?.url).toBe(apiPath('imageProxy'));
    expect(lines.join('\n')).not.toMatch(/private-holiday|127\.0\.0\.2|sig=/);
  });
});

describe('many images', () => {
  it('are fetched up to IMAGE_PROXY_RATE_LIMIT a minute per account; past it 429, nothing fetched, other accounts unaffected', async () => {
    const limited = await createTestApp({
      db: ctx.db,
      env: { IMAGE_PROXY_ALLOW_PRIVATE: '127.0.0.2', IMAGE_PROXY_RATE_LIMIT: '3' },
    });
    const [dee, eve] = [await mailUser(limited, 'Dee Hall'), await mailUser(limited, 'Eve Park')];
    const limitedSigner = new ImageUrlSigner(limited.app.deps.secrets.cookieSecret);
    const get = (user: MailUser, n: number) => user.browser.get(limitedSigner.proxyUrl(`${R}/many-${n}.png`));
    const hits = await hitsDuring(async () => {
      for (const n of [1, 2, 3]) expect((await get(dee, n)).statusCode).toBe(200);
      const refused = await get(dee, 4);
      expect(refused.statusCode).toBe(429);
      expect(errorCode(refused)).toBe('too_many_requests');
      expect((await get(eve, 5)).statusCode).toBe(200);
    });
    expect(hits.remote.map((h) => h.path)).toEqual([
      '/many-1.png',
      '/many-2.png',
      '/many-3.png',
      '/many-5.png',
    ]);
  });
});

describe('a slow image server', () => {
  it('gets the whole fetch, body included, within the timeout', async () => {
    const quick = await loggedTestApp({
      db: ctx.db,
      env: { IMAGE_PROXY_ALLOW_PRIVATE: '127.0.0.2', IMAGE_PROXY_TIMEOUT_MS: '300' },
    });
    const cy = await mailUser(quick, 'Cy Quick');
    const quickSigner = new ImageUrlSigner(quick.app.deps.secrets.cookieSecret);
    const silent = await cy.browser.get(quickSigner.proxyUrl(`${R}/silent`));
    expect(quick.failureOf(silent)).toMatch(/no answer within 300 ms/);

    // Headers came in time, the body does not: the answer is cut off rather than left hanging.
    await quick.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = quick.app.server.address() as AddressInfo;
    const cookie = [...cy.browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const started = Date.now();
    const outcome = await new Promise<{ status: number | undefined; complete: boolean }>((resolve) => {
      http
        .get(
          `http://127.0.0.1:${port}${quickSigner.proxyUrl(`${R}/stalls`)}`,
          { headers: { cookie, host: 'mailroom.localhost' } },
          (response) => {
            response.resume();
            response.on('close', () => resolve({ status: response.statusCode, complete: response.complete }));
          },
        )
        .on('error', () => resolve({ status: undefined, complete: false }));
    });
    expect(outcome).toEqual({ status: 200, complete: false });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('addresses', () => {
  it('calls only public internet addresses public', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      // IPv4-compatible (::/96) and IPv4-translated (::ffff:0:0/96) forms of loopback and private addresses.
      '::127.0.0.1',
      '::a00:1',
      '::ffff:0:127.0.0.1',
      '::ffff:0:a00:1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      'not an address',
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  it('puts proxied URLs back so they cannot end the attribute or style they sit in', () => {
    const url = `https://t.example/a.png?q=</style><script>&x='"`;
    const inAttribute = `<img src="${signer.proxyUrl(url).replaceAll('&', '&amp;')}">`;
    expect(restoreProxiedImageUrls(inAttribute)).toBe(
      '<img src="https://t.example/a.png?q=%3C/style%3E%3Cscript%3E&amp;x=%27%22">',
    );
    const inStyle = `<style>a{background:url("${signer.proxyUrl(url)}")}</style>`;
    expect(restoreProxiedImageUrls(inStyle)).toBe(
      '<style>a{background:url("https://t.example/a.png?q=%3C/style%3E%3Cscript%3E&x=%27%22")}</style>',
    );
  });
});

describe('sniffImageType', () => {
  it('knows PNG, JPEG, GIF, WebP and AVIF by their first bytes, and nothing else', () => {
    const bytes = (...parts: (string | number[])[]) =>
      Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
    expect(sniffImageType(PNG)).toBe('image/png');
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF'))).toBe('image/jpeg');
    expect(sniffImageType(bytes('GIF89a', [1, 0, 1, 0]))).toBe('image/gif');
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
    expect(sniffImageType(bytes([0, 0, 0, 0x1c], 'ftypavif'))).toBe('image/avif');
    expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(sniffImageType(bytes('<html><img src=x>'))).toBeUndefined();
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBeUndefined();
    expect(sniffImageType(bytes([0x89, 0x50, 0x4e]))).toBeUndefined();
    expect(sniffImageType(Buffer.alloc(0))).toBeUndefined();
  });
});
