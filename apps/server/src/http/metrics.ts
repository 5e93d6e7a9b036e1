import { createHash, timingSafeEqual } from 'node:crypto';
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
  /** When set, /metrics answers only `Authorization: Bearer <token>` (METRICS_TOKEN); open otherwise. */
  token?: string;
}

/** Compared as digests, so neither the length nor the content of the token leaks through timing. */
const digest = (text: string) => createHash('sha256').update(text).digest();

/** Prometheus metrics at /metrics: the process's registry (core/metrics.ts) with request durations by route. */
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
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (expected && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected))
      return reply.status(401).header('www-authenticate', 'Bearer').send(errorBody('invalid_token'));
    return reply
      .header('content-type', metricsRegistry.contentType)
      .header('cache-control', 'no-store')
      .send(await metricsRegistry.metrics());
  });
});
