import type { Db } from '../core/db/index.js';

/** When the account's wallet application was last told of new mail; undefined: never. */
export async function lastMailNotice(db: Db, accountId: number): Promise<Date | undefined> {
  const row = await db
    .selectFrom('wallet_mail_notices')
    .select('last_notified_at')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row?.last_notified_at;
}

/**
 * Claims the account's next notice: moves its time from `previous` to `at` only if no one else did meanwhile (two
 * processes, or a run that overlapped the next), so a notice is sent once. Answers whether this caller claimed it.
 */
export async function claimMailNotice(
  db: Db,
  accountId: number,
  previous: Date | undefined,
  at: Date,
): Promise<boolean> {
  if (previous === undefined) {
    const inserted = await db
      .insertInto('wallet_mail_notices')
      .values({ account_id: accountId, last_notified_at: at })
      .onConflict((oc) => oc.column('account_id').doNothing())
      .returning('account_id')
      .executeTakeFirst();
    return inserted !== undefined;
  }
  const updated = await db
    .updateTable('wallet_mail_notices')
    .set({ last_notified_at: at })
    .where('account_id', '=', accountId)
    .where('last_notified_at', '=', previous)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Gives a claim back after the notice could not be sent (the wallet unavailable), so the next run tries again. */
export async function releaseMailNotice(
  db: Db,
  accountId: number,
  claimedAt: Date,
  previous: Date | undefined,
): Promise<void> {
  if (previous === undefined) {
    await db
      .deleteFrom('wallet_mail_notices')
      .where('account_id', '=', accountId)
      .where('last_notified_at', '=', claimedAt)
      .execute();
    return;
  }
  await db
    .updateTable('wallet_mail_notices')
    .set({ last_notified_at: previous })
    .where('account_id', '=', accountId)
    .where('last_notified_at', '=', claimedAt)
    .execute();
}
