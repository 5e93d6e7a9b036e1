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

/**
 * Replaces the account's code with a new one unless the current one was made after `notBefore` (one statement, so two
 * requests at once cannot both pass); false when it was (too soon).
 */
export async function replacePasswordCode(
  db: Db,
  accountId: number,
  code: { purpose: 'new' | 'change'; codeHash: string; createdAt: Date; expiresAt: Date },
  notBefore: Date,
): Promise<boolean> {
  const values = {
    purpose: code.purpose,
    code_hash: code.codeHash,
    created_at: code.createdAt,
    expires_at: code.expiresAt,
    attempts: 0,
    used_at: null,
  };
  const row = await db
    .insertInto('password_codes')
    .values({ account_id: accountId, ...values })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet(values).where('password_codes.created_at', '<=', notBefore),
    )
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes back a code that could not be sent (so asking again is not held back a minute). */
export async function deletePasswordCode(db: Db, accountId: number, codeHash: string): Promise<void> {
  await db
    .deleteFrom('password_codes')
    .where('account_id', '=', accountId)
    .where('code_hash', '=', codeHash)
    .execute();
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
