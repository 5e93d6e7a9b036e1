import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBlobStore } from '../../src/core/blobs/index.js';
import { metricsRegistry } from '../../src/core/metrics.js';
import { loadConfig } from '../../src/config.js';
import { startMetricsListener } from '../../src/http/index.js';
import { Browser, cleanup, createTestApp, createTestDb, signUpAndSignIn } from '../_util.js';
import { LiveClient, listenWs } from '../_ws.js';
import { apiPath } from '../_client.js';

describe('readiness', () => {
  it('is 503 naming the blob store when it cannot be reached, while liveness stays 200', async () => {
    const db = await createTestDb();
    // A blob folder under a plain file: nothing can be read or written there.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-health-'));
    cleanup(() => fs.rm(dir, { recursive: true, force: true }));
    await fs.writeFile(path.join(dir, 'not-a-folder'), 'x');
    const { app } = await createTestApp({
      db,
      blobs: await openBlobStore(db, path.join(dir, 'not-a-folder', 'blobs')),
    });
    const ready = await new Browser(app).get('/healthz/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', checks: { database: 'ok', blobs: 'failed' } });
    expect((await new Browser(app).get('/healthz')).statusCode).toBe(503);
    expect((await new Browser(app).get('/healthz/live')).statusCode).toBe(200);
  });

  it('writes its probe blob where a working store keeps large blobs, and writes it again once it is gone', async () => {
    const { app, config } = await createTestApp();
    expect((await new Browser(app).get('/healthz/ready')).json()).toEqual({ status: 'ok' });
    const root = path.join(config.dataDir, 'blobs');
    const files = async () =>
      (await fs.readdir(root, { recursive: true })).filter((f) => /[0-9a-f]{64}$/.test(String(f)));
    const [probe] = await files();
    expect(probe).toBeDefined();
    // A blob collector removed it (nothing references it): the next check stores it again and is still ready.
    await fs.rm(path.join(root, String(probe)));
    expect((await new Browser(app).get('/healthz/ready')).statusCode).toBe(200);
    expect(await files()).toEqual([probe]);
  });

  it('is 503 shutting_down once the process is stopping', async () => {
    const { app } = await createTestApp();
    app.health.shuttingDown = true;
    const ready = await new Browser(app).get('/healthz/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'shutting_down' });
    expect((await new Browser(app).get('/healthz/live')).statusCode).toBe(200);
  });
});

describe('closing the server', () => {
  it('tells live sockets 1001 going away, so pages reconnect to another node; the gauge counts them', async () => {
    const { app } = await createTestApp();
    const url = await listenWs(app);
    const { browser } = await signUpAndSignIn(app, 'Going Away');
    const gauge = async () =>
      (await metricsRegistry.getSingleMetric('mailroom_websocket_clients')!.get()).values[0]!.value;
    const before = await gauge();
    const tabs = await Promise.all(
      [0, 1].map(() => LiveClient.open(url, { token: browser.cookies.get('mr_sid')! })),
    );
    await Promise.all(tabs.map((t) => t.greet()));
    expect(await gauge()).toBe(before + 2);
    await app.close();
    for (const tab of tabs)
      expect(await tab.closedWithin(2000)).toEqual({ code: 1001, reason: 'server shutting down' });
    // The server's side of each socket ends once the closing handshake is through.
    for (let i = 0; i < 50 && (await gauge()) !== before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await gauge()).toBe(before);
  });
});

describe('metrics', () => {
  it('with METRICS_TOKEN set, /metrics answers only the bearer of that token', async () => {
    const token = 'scraper-token-0123456789';
    const { app } = await createTestApp({ env: { METRICS_TOKEN: token } });
    const scrape = (authorization?: string) =>
      app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    for (const wrong of [undefined, 'Bearer nope', `Bearer ${token}x`, token, `Basic ${token}`]) {
      const reply = await scrape(wrong);
      expect(reply.statusCode).toBe(401);
      expect(reply.json().error.meta.i8s).toBe('invalid_token');
      expect(reply.body).not.toContain('mailroom_');
    }
    const ok = await scrape(`Bearer ${token}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('mailroom_websocket_clients');
  });

  it('without METRICS_TOKEN the public port has no /metrics: the metrics listener on loopback answers it', async () => {
    const { app, config } = await createTestApp();
    // The default: a listener of its own on loopback, the public port without /metrics.
    expect(config.metrics).toEqual({ listener: { host: '127.0.0.1', port: 9464 } });
    expect(loadConfig({ METRICS_PORT: 'off' }).metrics.listener).toBeNull();
    for (const headers of [{}, { accept: 'text/html' }, { authorization: 'Bearer anything-at-all-here' }]) {
      const reply = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { host: 'mailroom.localhost', ...headers },
      });
      expect(reply.statusCode).toBe(404);
      expect(reply.body).not.toContain('mailroom_');
    }

    const listener = await startMetricsListener({ host: '127.0.0.1', port: 0 });
    cleanup(() => listener.close());
    await app.inject({ method: 'GET', url: '/healthz' });
    const scraped = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    const text = await scraped.text();
    expect(text).toContain('mailroom_http_request_duration_seconds_bucket');
    expect(text).toContain('process_cpu_user_seconds_total');
    // Nothing of the app is on it.
    for (const path of ['/', '/healthz', apiPath('account'), '/metrics/x'])
      expect((await fetch(`http://127.0.0.1:${listener.port}${path}`)).status, path).toBe(404);
    expect((await fetch(`http://127.0.0.1:${listener.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
