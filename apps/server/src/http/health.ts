import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';
import { SMALL_BLOB_MAX_BYTES, blobHash, type BlobStore } from '../core/blobs/index.js';

export interface HealthOptions {
  db: Db;
  blobs: BlobStore;
  /** How long each check may take before it counts as failed (default 2 s). */
  deadlineMs?: number;
}

/** What a readiness check found. */
type CheckResult = 'ok' | 'failed' | 'timeout';

declare module 'fastify' {
  interface FastifyInstance {
    /** The process is stopping (main.ts): readiness answers 503 from now on, so a load balancer sends no more. */
    health: { shuttingDown: boolean };
  }
}

/**
 * One blob just over the database's small-blob size, so it lives where the large ones do (the folder, the bucket):
 * a store that answers for it is reachable. Not referenced by anything, so a blob collector may remove it; the check
 * writes it again then (a write the store must take anyway).
 */
const probe = Buffer.alloc(SMALL_BLOB_MAX_BYTES + 1, 'mailroom readiness probe\n');
const probeHash = blobHash(probe);

async function within(deadlineMs: number, check: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), deadlineMs);
  });
  try {
    return await Promise.race([check().then((): CheckResult => 'ok'), timeout]);
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Health for load balancers and orchestrators. `/healthz/live`: the process answers (restart it when it does not).
 * `/healthz/ready`: it can serve — the database answers a query and the blob store reaches the probe blob, each
 * within the deadline — and it is not shutting down; 503 with what failed otherwise (send it no traffic, leave it
 * running). `/healthz` is readiness: what the e2e harness, the benchmarks and a plain load balancer check wait for.
 */
export const healthPlugin = fp<HealthOptions>(async (app, opts) => {
  const deadlineMs = opts.deadlineMs ?? 2000;
  app.decorate('health', { shuttingDown: false });

  const ready = async () => {
    if (app.health.shuttingDown) return { ok: false, body: { status: 'shutting_down' } } as const;
    const [database, blobs] = await Promise.all([
      within(deadlineMs, () => sql`select 1`.execute(opts.db)),
      within(deadlineMs, async () => {
        if (!(await opts.blobs.has(probeHash))) await opts.blobs.put(probe);
      }),
    ]);
    if (database === 'ok' && blobs === 'ok') return { ok: true, body: { status: 'ok' } } as const;
    return { ok: false, body: { status: 'unavailable', checks: { database, blobs } } } as const;
  };

  const answerReady = async (_request: unknown, reply: FastifyReply) => {
    const { ok, body } = await ready();
    if (!ok) app.log.warn({ health: body }, 'not ready');
    return reply
      .status(ok ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(body);
  };
  app.get('/healthz/live', { schema: { hide: true } }, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/healthz/ready', { schema: { hide: true } }, answerReady);
  app.get('/healthz', { schema: { hide: true } }, answerReady);
});
