import { validateAliasName, type AliasEntry, type AliasKind } from '@mailroom/protocol';
import { isUniqueViolation, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { lockAccount } from '../mailbox/index.js';
import { findAccountByEmail, passportLevelAtLeast, passportLevelOf } from '../accounts/index.js';
import type { WalletDeps } from '../wallet/index.js';
import {
  findAccountAlias,
  hasAliasHolding,
  insertAlias,
  isAliasNameTaken,
  type AliasRow,
} from '../addresses/index.js';
import { endAddressSessions } from '../auth/index.js';

/**
 * What the free and the paid aliases share (SPEC §1, §5; the rules are the contract's, packages/protocol
 * schemas/aliases.ts): the rules every new alias passes, the entry the screen shows, and what every change does after
 * its commit — the owner's other tabs told (updateAccount, part aliases), and an address gone or its password changed
 * ends the sessions signed in with it (auth owns sessions, which is why aliases live above auth, in user/).
 */
export interface AliasDeps extends WalletDeps {
  mailDomain: string;
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
}

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

/** The account's alias (not deleted), or alias_not_found: another account's id is never told apart. */
export async function requireAccountAlias(db: Db, accountId: number, aliasId: number): Promise<AliasRow> {
  const row = await findAccountAlias(db, accountId, aliasId);
  if (!row) throw new DomainError('alias_not_found');
  return row;
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

/** The owner's other tabs told that the aliases changed. */
export async function aliasesChanged(deps: AliasDeps, accountId: number): Promise<void> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'aliases' }]);
}

/** An alias gone: its password sessions end; the screen is told. */
export async function aliasRemoved(deps: AliasDeps, accountId: number, email: string): Promise<void> {
  await endAddressSessions(deps, accountId, email);
  await aliasesChanged(deps, accountId);
}
