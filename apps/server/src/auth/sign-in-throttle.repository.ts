import { sql, type RawBuilder } from 'kysely';
import { type Db, deleteRows } from '../core/db/index.js';

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

export interface ThrottlePolicy {
  /** Attempts that never wait. */
  free: number;
  /** The wait after the last free attempt; it doubles with each attempt after. */
  firstWaitMs: number;
  maxWaitMs: number;
  /** Attempts older than this are forgotten. */
  forgetAfterMs: number;
}

/**
 * Claims one password check for `key`, in one statement, counting it as a wrong password until
 * the caller clears it (a right one): undefined while `key` must wait. The claim also sets the
 * wait that follows it, so attempts sent at the same moment are counted one after the other on
 * the row's lock and only the free ones (or the one after a wait) are checked. A count whose
 * last attempt is older than `forgetAfterMs` starts over. Returns the count with this attempt.
 */
export async function claimAttempt(db: Db, key: string, policy: ThrottlePolicy): Promise<number | undefined> {
  const forgotten = sql<boolean>`sign_in_throttles.last_failure_at <= now() - ${policy.forgetAfterMs} * interval '1 millisecond'`;
  const failures = sql<number>`case when ${forgotten} then 1 else sign_in_throttles.failures + 1 end`;
  const waitFor = (count: RawBuilder<number>) =>
    sql<Date>`now() + (case when ${count} >= ${policy.free}
      then least(${policy.maxWaitMs}::float8, ${policy.firstWaitMs}::float8 * power(2, ${count} - ${policy.free}))
      else 0 end) * interval '1 millisecond'`;
  const row = await db
    .insertInto('sign_in_throttles')
    .values({
      key,
      failures: 1,
      last_failure_at: sql<Date>`now()`,
      blocked_until: waitFor(sql<number>`1`),
    })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ failures, last_failure_at: sql<Date>`now()`, blocked_until: waitFor(failures) })
        .where('sign_in_throttles.blocked_until', '<=', sql<Date>`now()`),
    )
    .returning('failures')
    .executeTakeFirst();
  return row?.failures;
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
  return deleteRows(
    db
      .deleteFrom('sign_in_throttles')
      .where('last_failure_at', '<=', sql<Date>`now() - ${quietMs} * interval '1 millisecond'`)
      .where('blocked_until', '<=', sql<Date>`now()`),
  );
}
