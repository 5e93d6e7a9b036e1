import type { Db } from '../core/db/index.js';
import type { Principal } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../core/password-hash.js';
import { findPasswordAccess, upsertPasswordAccess } from './addresses.repository.js';
import { ownAddress } from './addresses.service.js';

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
  const passwordHash = await hashPassword(password);
  await upsertPasswordAccess(db, { email: email.toLowerCase(), accountId, passwordHash });
}

export async function signInWithPassword(db: Db, email: string, password: string): Promise<Principal> {
  const row = await findPasswordAccess(db, email.trim().toLowerCase());
  // Verify against a dummy hash for unknown addresses so both answers take the same time.
  const ok = await verifyPassword(password, row?.password_hash ?? dummyPasswordHash);
  if (!row || !ok) throw new DomainError('incorrect_login_or_password');
  // Access ends with the address (deleting an alias removes it too; this holds whatever else removed the address).
  if (!(await ownAddress(db, row.account_id, row.email)))
    throw new DomainError('incorrect_login_or_password');
  return { accountId: row.account_id, aliasEmail: row.email };
}

/** The account an address with password access belongs to (whose owner is told of guessing). */
export async function passwordAccessAccount(db: Db, email: string): Promise<number | undefined> {
  return (await findPasswordAccess(db, email.trim().toLowerCase()))?.account_id;
}
