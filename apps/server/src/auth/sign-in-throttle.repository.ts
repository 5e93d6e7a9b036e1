import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';

const msFromNow = (column: 'blocked_until') =>
  sql<number>`greatest(0, ceil(extract(epoch from (${sql.ref(column)} - now())) * 1000))::float8`;

/** How long attempts for `key` must still wait (0: none); the database's clock decides. */
export async function throttleWaitMs(db: Db, key: string): Promise<number> {
  const row = await db
    .selectFrom('sign_in_throttles')
    .select(msFromNow('blocked_until').as('wait_ms'))
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.wait_ms ?? 0;
}

/**
 * Counts one wrong password for `key`, in one statement: a count whose last failure is older than
 * `forgetAfterMs` starts over at 1. Returns the count.
 */
export async function countFailure(db: Db, key: string, forgetAfterMs: number): Promise<number> {
  const row = await db
    .insertInto('sign_in_throttles')
    .values({ key, failures: 1, last_failure_at: sql<Date>`now()`, blocked_until: sql<Date>`now()` })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when sign_in_throttles.last_failure_at <= now() - ${forgetAfterMs} * interval '1 millisecond'
          then 1 else sign_in_throttles.failures + 1 end`,
        last_failure_at: sql<Date>`now()`,
        blocked_until: sql<Date>`now()`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return row.failures;
}

/** Attempts for `key` wait `waitMs` from now on. */
export async function holdBack(db: Db, key: string, waitMs: number): Promise<void> {
  await db
    .updateTable('sign_in_throttles')
    .set({ blocked_until: sql<Date>`now() + ${waitMs} * interval '1 millisecond'` })
    .where('key', '=', key)
    .execute();
}

/** True for the one caller that may tell the owner now: not told within `quietMs`. */
export async function claimNotice(db: Db, key: string, quietMs: number): Promise<boolean> {
  const row = await db
    .updateTable('sign_in_throttles')
    .set({ notified_at: sql<Date>`now()` })
    .where('key', '=', key)
    .where((eb) =>
      eb.or([
        eb('notified_at', 'is', null),
        eb('notified_at', '<=', sql<Date>`now() - ${quietMs} * interval '1 millisecond'`),
      ]),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function clearThrottle(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sign_in_throttles').where('key', '=', key).execute();
}

/** Removes the counts of names nobody has got wrong for `quietMs`. */
export async function deleteQuietThrottles(db: Db, quietMs: number): Promise<number> {
  const result = await db
    .deleteFrom('sign_in_throttles')
    .where('last_failure_at', '<=', sql<Date>`now() - ${quietMs} * interval '1 millisecond'`)
    .where('blocked_until', '<=', sql<Date>`now()`)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
