import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../core/db/index.js';
import { deleteExpiredRateLimits, hitRateLimit, readRateLimit } from './rate-limits.repository.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** How often a process sweeps ended windows, and how many rows one sweep deletes at most. */
const SWEEP_EVERY_MS = 60_000;
const SWEEP_LIMIT = 1000;

/**
 * A @fastify/rate-limit store over the rate_limits table, so processes sharing a PostgreSQL database
 * share their counters (the default store counts in each process's memory). Fixed windows, like the
 * memory store; continueExceeding and exponentialBackoff are not supported (no route uses them).
 * Each route counts apart, as with the memory store, by a prefix of its method and URL. Now and then
 * (at most once a minute per process, on a hit) a bounded delete sweeps rows whose window has ended.
 */
export function postgresRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  const sweep = () => {
    const now = Date.now();
    if (now - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = now;
    // A failed sweep is retried next time; the hit itself does not depend on it.
    void deleteExpiredRateLimits(db, SWEEP_LIMIT).catch(() => undefined);
  };

  class PostgresRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      sweep();
      hitRateLimit(db, this.prefix + key, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    read(key: string, callback: Callback): void {
      readRateLimit(db, this.prefix + key).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      const method = [route?.method ?? ''].flat().join(',');
      return new PostgresRateLimitStore(routeOptions, `${method} ${route?.url ?? ''}|`);
    }
  }
  return PostgresRateLimitStore;
}
