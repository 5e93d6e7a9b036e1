import { sql } from 'kysely';
import { type Db, deleteRows } from '../core/db/index.js';

export interface RateLimitState {
  count: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

const ttlMs = sql<number>`greatest(0, ceil(extract(epoch from (reset_at - now())) * 1000))::float8`;

/**
 * Counts one hit on `key` in a fixed window of `windowMs`, in one statement: a new key or one whose
 * window has ended starts over at 1. The database's clock decides, so processes on several hosts agree.
 */
export async function hitRateLimit(db: Db, key: string, windowMs: number): Promise<RateLimitState> {
  const row = await db
    .insertInto('rate_limits')
    .values({ key, count: 1, reset_at: sql<Date>`now() + ${windowMs} * interval '1 millisecond'` })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when rate_limits.reset_at <= now() then 1 else rate_limits.count + 1 end`,
        reset_at: sql<Date>`case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end`,
      }),
    )
    .returning(['count', ttlMs.as('ttl_ms')])
    .executeTakeFirstOrThrow();
  return { count: row.count, ttlMs: row.ttl_ms };
}

/** The state of `key` without counting a hit; an ended window reads as none. */
export async function readRateLimit(db: Db, key: string): Promise<RateLimitState> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['count', ttlMs.as('ttl_ms')])
    .where('key', '=', key)
    .where('reset_at', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ? { count: row.count, ttlMs: row.ttl_ms } : { count: 0, ttlMs: 0 };
}

/**
 * Deletes up to `limit` rows whose window has ended. The outer condition is checked again on the row
 * it deletes, so a key a concurrent hit just started over is kept.
 */
export async function deleteExpiredRateLimits(db: Db, limit: number): Promise<number> {
  return deleteRows(
    db
      .deleteFrom('rate_limits')
      .where('key', 'in', (eb) =>
        eb
          .selectFrom('rate_limits')
          .select('key')
          .where('reset_at', '<=', sql<Date>`now()`)
          .limit(limit),
      )
      .where('reset_at', '<=', sql<Date>`now()`),
  );
}
