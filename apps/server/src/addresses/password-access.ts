import type { Db, Trx } from '../core/db/index.js';
import type { Principal } from '../accounts/index.js';
import { DomainError } from '../core/errors.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from '../core/password-hash.js';
import { deletePasswordAccess, findPasswordAccess, upsertPasswordAccess } from './addresses.repository.js';
import { ownAddress } from './addresses.service.js';
import { countAccessChanges, recordAccessChange } from './aliases.repository.js';

/** Password access may change this often per address within ACCESS_WINDOW_MS; one more is alias_access_limit. */
export const ALIAS_ACCESS_CHANGES_PER_HOUR = 5;
const ACCESS_WINDOW_MS = 3600_000;

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

/**
 * The hash a password access change stores: the password given twice, equal (passwords_do_not_match otherwise), or
 * null to remove the access. scrypt takes a while and much memory: call it before taking any row's lock.
 */
export async function accessPasswordHash(update: {
  password: string | null;
  password_confirm?: string | undefined;
}): Promise<string | null> {
  if (update.password !== null && update.password !== update.password_confirm)
    throw new DomainError('passwords_do_not_match');
  return update.password === null ? null : hashPassword(update.password);
}

/**
 * Sets (a hash) or removes (null) the password access of an alias or domain address whose row `trx` holds locked. At
 * most ALIAS_ACCESS_CHANGES_PER_HOUR changes of one address within an hour, counted in the database
 * (alias_access_changes) so every process sees the same count; one more is alias_access_limit.
 */
export async function changePasswordAccess(
  trx: Trx,
  accountId: number,
  address: { id: number; email: string },
  passwordHash: string | null,
  now: Date,
): Promise<void> {
  const recent = await countAccessChanges(trx, address.id, new Date(now.getTime() - ACCESS_WINDOW_MS));
  if (recent >= ALIAS_ACCESS_CHANGES_PER_HOUR) throw new DomainError('alias_access_limit');
  if (passwordHash === null) await deletePasswordAccess(trx, accountId, address.email);
  else await upsertPasswordAccess(trx, { email: address.email, accountId, passwordHash });
  await recordAccessChange(trx, address.id, now);
}
