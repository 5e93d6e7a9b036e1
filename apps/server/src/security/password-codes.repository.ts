import type { Db, Trx } from '../core/db/index.js';

export interface PasswordCodeRow {
  purpose: 'new' | 'change';
  code_hash: string;
  created_at: Date;
  expires_at: Date;
  attempts: number;
  used_at: Date | null;
}

/** The account's code row locked, so two tries at once cannot both use it nor both escape the count. */
export function lockPasswordCode(trx: Trx, accountId: number): Promise<PasswordCodeRow | undefined> {
  return trx
    .selectFrom('password_codes')
    .select(['purpose', 'code_hash', 'created_at', 'expires_at', 'attempts', 'used_at'])
    .where('account_id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
}

/** The account's code row and its day's count, locked; a placeholder row (no live code) is made for a first code. */
export async function lockCodeDay(trx: Trx, accountId: number): Promise<CodeDayRow> {
  const select = () =>
    trx
      .selectFrom('password_codes')
      .select(['created_at', 'day_started_at', 'day_codes', 'locked_until'])
      .where('account_id', '=', accountId)
      .forUpdate()
      .executeTakeFirst();
  const row = await select();
  if (row) return row;
  const never = new Date(0);
  await trx
    .insertInto('password_codes')
    .values({
      account_id: accountId,
      purpose: 'new',
      code_hash: '',
      created_at: never,
      expires_at: never,
      used_at: never,
    })
    .onConflict((oc) => oc.column('account_id').doNothing())
    .execute();
  return (await select())!;
}

export interface CodeDayRow {
  created_at: Date;
  day_started_at: Date | null;
  day_codes: number;
  locked_until: Date | null;
}

/** Puts a new code in place of the account's previous one (its row locked by lockCodeDay), with the day's count. */
export async function replacePasswordCode(
  trx: Trx,
  accountId: number,
  code: { purpose: 'new' | 'change'; codeHash: string; createdAt: Date; expiresAt: Date },
  day: { startedAt: Date; codes: number; lockedUntil: Date | null },
): Promise<void> {
  await trx
    .updateTable('password_codes')
    .set({
      purpose: code.purpose,
      code_hash: code.codeHash,
      created_at: code.createdAt,
      expires_at: code.expiresAt,
      attempts: 0,
      used_at: null,
      day_started_at: day.startedAt,
      day_codes: day.codes,
      locked_until: day.lockedUntil,
    })
    .where('account_id', '=', accountId)
    .execute();
}

/**
 * Takes back a code that could not be sent: it is spent, asking again is not held back a minute, and it does not count
 * towards the day's codes.
 */
export async function takeBackPasswordCode(db: Db, accountId: number, codeHash: string): Promise<void> {
  const never = new Date(0);
  await db
    .updateTable('password_codes')
    .set((eb) => ({
      created_at: never,
      expires_at: never,
      used_at: never,
      day_codes: eb('day_codes', '-', 1),
      locked_until: null,
    }))
    .where('account_id', '=', accountId)
    .where('code_hash', '=', codeHash)
    .execute();
}

/** Until when the account may ask for no more codes today (undefined: it may). */
export async function codesLockedUntil(db: Db, accountId: number, now: Date): Promise<Date | undefined> {
  const row = await db
    .selectFrom('password_codes')
    .select('locked_until')
    .where('account_id', '=', accountId)
    .where('locked_until', '>', now)
    .executeTakeFirst();
  return row?.locked_until ?? undefined;
}

export async function countWrongCode(trx: Trx, accountId: number): Promise<void> {
  await trx
    .updateTable('password_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('account_id', '=', accountId)
    .execute();
}

export async function markCodeUsed(trx: Trx, accountId: number, at: Date): Promise<void> {
  await trx.updateTable('password_codes').set({ used_at: at }).where('account_id', '=', accountId).execute();
}
