import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import { Histogram } from 'prom-client';
import { errorBody } from '@mailroom/protocol';
import { metricsRegistry } from '../core/metrics.js';

const duration = new Histogram({
  name: 'mailroom_http_request_duration_seconds',
  help: 'HTTP request duration by method, route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [metricsRegistry],
});

export interface MetricsOptions {
  /**
   * When set (METRICS_TOKEN), /metrics on the public port answers `Authorization: Bearer <token>` only; when unset the
   * public port has no /metrics (they are on the metrics listener, `startMetricsListener`).
   */
  token?: string | undefined;
}

/** Compared as digests, so neither the length nor the content of the token leaks through timing. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Request durations by route into the process's registry (core/metrics.ts), and /metrics on the public port for the
 * bearer of METRICS_TOKEN when it is set. Without a token nothing public answers it: an open /metrics tells anyone
 * the traffic, the queue and the process's memory.
 */
export const metricsPlugin = fp<MetricsOptions>(async (app, opts) => {
  const expected = opts.token ? digest(`Bearer ${opts.token}`) : null;
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  if (!expected) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected))
      return reply.status(401).header('www-authenticate', 'Bearer').send(errorBody('invalid_token'));
    return reply
      .header('content-type', metricsRegistry.contentType)
      .header('cache-control', 'no-store')
      .send(await metricsRegistry.metrics());
  });
});

/**
 * The metrics listener (METRICS_HOST:METRICS_PORT, loopback by default): GET /metrics with no token, for a scraper
 * on the same host or network; anything else 404. A plain HTTP server apart from the app, so nothing of the app
 * (sessions, the web app, the API) is reachable on it, and the public port needs no /metrics at all.
 */
export async function startMetricsListener(opts: { host: string; port: number }): Promise<{
  port: number;
  close(): Promise<void>;
}> {
  const server = http.createServer((request, response) => {
    const pathname = (request.url ?? '').split('?')[0];
    if ((request.method !== 'GET' && request.method !== 'HEAD') || pathname !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify(errorBody('not_found')));
      return;
    }
    metricsRegistry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metricsRegistry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`metrics failed: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
  // A scraper's keep-alive connection must not hold the shutdown up.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
