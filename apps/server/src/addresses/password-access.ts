import type { Db } from '../core/db/index.js';
import type { Principal } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../core/password-hash.js';

/**
 * Password access to one address, granted by the mailbox owner (SPEC §1 "grant password access").
 * The owner-facing screens land with delegation; sign-in by it works now.
 */
export async function grantPasswordAccess(
  db: Db,
  accountId: number,
  email: string,
  password: string,
): Promise<void> {
  const password_hash = await hashPassword(password);
  await db
    .insertInto('password_accesses')
    .values({ email: email.toLowerCase(), account_id: accountId, password_hash })
    .onConflict((oc) => oc.column('email').doUpdateSet({ password_hash, account_id: accountId }))
    .execute();
}

export async function signInWithPassword(db: Db, email: string, password: string): Promise<Principal> {
  const row = await db
    .selectFrom('password_accesses')
    .select(['account_id', 'password_hash', 'email'])
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  // Verify against a dummy hash for unknown addresses so both answers take the same time.
  const ok = await verifyPassword(password, row?.password_hash ?? dummyPasswordHash);
  if (!row || !ok) throw new DomainError('user_not_found', 'User not found');
  return { accountId: row.account_id, aliasEmail: row.email };
}
