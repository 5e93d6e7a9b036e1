import {
  validateAliasName,
  type AliasAccessUpdate,
  type AliasEntry,
  type AliasKind,
  type AliasesResponse,
} from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { hashPassword } from '../core/password-hash.js';
import { lockAccount } from '../mailbox/index.js';
import { findAccountByEmail, passportLevelAtLeast, passportLevelOf } from '../accounts/index.js';
import { deletePasswordAccess, upsertPasswordAccess } from './addresses.repository.js';
import {
  countAccessChanges,
  findAccountAlias,
  hasAliasHolding,
  insertAlias,
  isAliasNameTaken,
  listAccountAliases,
  lockAccountAlias,
  lockActiveAliasByEmail,
  markAliasDeleted,
  recordAccessChange,
  type AliasRow,
} from './aliases.repository.js';

/**
 * The aliases of an account (SPEC §1, §5; the rules are the contract's, packages/protocol schemas/aliases.ts). This
 * file holds the free alias, the rules every new alias passes, deletion and password access; paid-aliases.service.ts
 * the paid ones and their payment.
 */

/** Password access may change this often per alias within ACCESS_WINDOW_MS; one more is alias_access_limit. */
export const ALIAS_ACCESS_CHANGES_PER_HOUR = 5;
const ACCESS_WINDOW_MS = 3600_000;

export function toAliasEntry(row: AliasRow, passwordAccess: boolean): AliasEntry {
  // Only free and paid aliases reach the aliases screen (listAccountAliases); a domain address is never one of them.
  if (row.kind === 'domain' || row.status === 'prepared')
    throw new Error(`aliases row ${row.id} is not an alias`);
  return {
    id: row.id,
    email: row.email,
    kind: row.kind,
    status: row.status,
    password_access: passwordAccess,
    created_at: row.created_at.toISOString(),
  };
}

/** GET user/aliases: every alias that is not deleted, oldest first; whether the free one is still to be taken. */
export async function aliasesOf(db: Db, mailDomain: string, accountId: number): Promise<AliasesResponse> {
  const rows = await listAccountAliases(db, accountId);
  return {
    aliases: rows.map((row) => toAliasEntry(row, row.password_access)),
    free_available: !rows.some((row) => row.kind === 'free' && row.status !== 'failed'),
    domain: mailDomain,
  };
}

/** One alias of the account as the screen shows it; alias_not_found for another account's id or a deleted one. */
export async function aliasEntryOf(db: Db, accountId: number, aliasId: number): Promise<AliasEntry> {
  const row = (await listAccountAliases(db, accountId)).find((r) => r.id === aliasId);
  if (!row) throw new DomainError('alias_not_found');
  return toAliasEntry(row, row.password_access);
}

/**
 * The rules every new alias passes, in the contract's order, each with its code: the name (validateAliasName), the
 * passport (at least formal), the name free across the service (aliases holding it, primary addresses), then the
 * count (one free alias; one paid alias on its way at a time). Answers the address to create. Run under the account
 * row's lock, so one account's requests are checked one after another; the unique indexes hold across accounts.
 */
async function checkNewAlias(
  trx: Trx,
  mailDomain: string,
  accountId: number,
  rawName: string,
  kind: AliasKind,
): Promise<string> {
  const name = rawName.trim();
  const invalid = validateAliasName(name);
  if (invalid) throw new DomainError(invalid);
  if (!passportLevelAtLeast(await passportLevelOf(trx, accountId), 'formal'))
    throw new DomainError('passport_level_required');
  const email = `${name.toLowerCase()}@${mailDomain}`;
  if ((await isAliasNameTaken(trx, email)) || (await findAccountByEmail(trx, email)))
    throw new DomainError('duplicate_aliases');
  if (await hasAliasHolding(trx, accountId, kind))
    throw new DomainError(kind === 'free' ? 'max_count_aliases' : 'alias_max_count_paying');
  return email;
}

/** Which rule a unique index refused an insert by (two requests raced past the checks). */
function raceError(err: unknown, kind: AliasKind): DomainError {
  const constraint = (err as { constraint?: string }).constraint;
  if (constraint === 'aliases_one_free' && kind === 'free') return new DomainError('max_count_aliases');
  if (constraint === 'aliases_one_paying') return new DomainError('alias_max_count_paying');
  return new DomainError('duplicate_aliases');
}

/**
 * Creates an alias that passed the rules: the free one active at once, a paid one unpaid (its name held until the
 * invoice is paid, rejected or given up). Inside the caller's transaction.
 */
export async function insertCheckedAlias(
  trx: Trx,
  mailDomain: string,
  accountId: number,
  name: string,
  kind: AliasKind,
): Promise<AliasRow> {
  await lockAccount(trx, accountId);
  const email = await checkNewAlias(trx, mailDomain, accountId, name, kind);
  try {
    return await insertAlias(trx, { accountId, email, kind, status: kind === 'free' ? 'succeed' : 'unpaid' });
  } catch (err) {
    if (isUniqueViolation(err)) throw raceError(err, kind);
    throw err;
  }
}

/** POST user/aliases: the free alias. */
export async function createFreeAlias(
  db: Db,
  mailDomain: string,
  accountId: number,
  name: string,
): Promise<AliasEntry> {
  const row = await transact(db, (trx) => insertCheckedAlias(trx, mailDomain, accountId, name, 'free'));
  return toAliasEntry(row, false);
}

/**
 * Deletes an active alias (DELETE user/aliases/{id}, and a succeeded paid one by DELETE user/aliases/paid/{id}): it
 * receives nothing from now on and its password access goes; its mail stays. Answers its address, whose sessions the
 * caller ends. An alias whose payment is being checked cannot go (`paying`, the caller's code for it).
 */
export async function deleteActiveAlias(
  db: Db,
  accountId: number,
  aliasId: number,
  paying: 'alias_cant_delete' | 'error_alias_status_paying',
): Promise<{ email: string }> {
  return transact(db, async (trx) => {
    const row = await lockAccountAlias(trx, accountId, aliasId);
    if (!row) throw new DomainError('alias_not_found');
    if (row.status === 'paying') throw new DomainError(paying);
    if (row.status !== 'succeed') throw new DomainError('alias_cant_delete');
    await markAliasDeleted(trx, row.id);
    await deletePasswordAccess(trx, accountId, row.email);
    return { email: row.email };
  });
}

/** The account's alias (not deleted), or alias_not_found: another account's id is never told apart. */
export async function requireAccountAlias(db: Db, accountId: number, aliasId: number): Promise<AliasRow> {
  const row = await findAccountAlias(db, accountId, aliasId);
  if (!row) throw new DomainError('alias_not_found');
  return row;
}

/**
 * PUT user/aliases/update_access: sets (the password twice, equal) or removes (`password: null`) password access to
 * one of the account's active aliases, stored with scrypt. At most ALIAS_ACCESS_CHANGES_PER_HOUR changes of one alias
 * within an hour, counted in the database (alias_access_changes) so every process sees the same count. Answers the
 * alias; the caller ends the sessions signed in with the old password.
 */
export async function changeAliasAccess(
  db: Db,
  accountId: number,
  update: AliasAccessUpdate,
  now = new Date(),
): Promise<AliasEntry> {
  const email = update.email.trim();
  if (!email.includes('@')) throw new DomainError('alias_has_no_at');
  if (update.password !== null && update.password !== update.password_confirm)
    throw new DomainError('passwords_do_not_match');
  // scrypt takes a while and much memory: never while holding the row.
  const passwordHash = update.password === null ? null : await hashPassword(update.password);
  return transact(db, async (trx) => {
    const row = await lockActiveAliasByEmail(trx, accountId, email);
    // An address on a domain is no alias: its password is set on the domain's screen (PUT …/emails/{id}/access).
    if (!row || row.kind === 'domain') throw new DomainError('alias_not_found');
    const recent = await countAccessChanges(trx, row.id, new Date(now.getTime() - ACCESS_WINDOW_MS));
    if (recent >= ALIAS_ACCESS_CHANGES_PER_HOUR) throw new DomainError('alias_access_limit');
    if (passwordHash === null) await deletePasswordAccess(trx, accountId, row.email);
    else await upsertPasswordAccess(trx, { email: row.email, accountId, passwordHash });
    await recordAccessChange(trx, row.id, now);
    return toAliasEntry(row, passwordHash !== null);
  });
}
