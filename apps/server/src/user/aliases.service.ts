import type { AliasAccessUpdate, AliasEntry, AliasesResponse } from '@mailroom/protocol';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import {
  accessPasswordHash,
  changePasswordAccess,
  deletePasswordAccess,
  listAccountAliases as aliasRowsOf,
  lockAccountAlias,
  lockActiveAliasByEmail,
  markAliasDeleted,
} from '../addresses/index.js';
import { endAddressSessions } from '../auth/index.js';
import {
  aliasesChanged,
  aliasRemoved,
  insertCheckedAlias,
  requireAccountAlias,
  toAliasEntry,
  type AliasDeps,
} from './alias-rules.js';
import { removePaidAlias } from './paid-aliases.service.js';

/**
 * The aliases of an account as the settings/aliases screen works them (SPEC §1, §5): the free alias, deletion and
 * password access; paid-aliases.service.ts the paid ones and their payment, alias-rules.ts what both share. Every
 * change is told to the owner's other tabs, and what ends an address's password access ends its open sessions too.
 */

export type { AliasDeps } from './alias-rules.js';

/** GET user/aliases: every alias that is not deleted, oldest first; whether the free one is still to be taken. */
export async function listAccountAliases(deps: AliasDeps, accountId: number): Promise<AliasesResponse> {
  const rows = await aliasRowsOf(deps.db, accountId);
  return {
    aliases: rows.map((row) => toAliasEntry(row, row.password_access)),
    free_available: !rows.some((row) => row.kind === 'free' && row.status !== 'failed'),
    domain: deps.mailDomain,
  };
}

/** POST user/aliases: the free alias. */
export async function createAlias(deps: AliasDeps, accountId: number, name: string): Promise<AliasEntry> {
  const row = await transact(deps.db, (trx) =>
    insertCheckedAlias(trx, deps.mailDomain, accountId, name, 'free'),
  );
  await aliasesChanged(deps, accountId);
  return toAliasEntry(row, false);
}

/**
 * DELETE user/aliases/{id}: an active alias receives nothing from now on and its password access goes (its mail
 * stays); a paid one not active yet is given up as DELETE user/aliases/paid does it; being paid: alias_cant_delete.
 * Its password sessions end; the screen is told.
 */
export async function deleteAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<void> {
  const row = await requireAccountAlias(deps.db, accountId, aliasId);
  if (row.kind === 'paid' && row.status !== 'succeed') {
    await removePaidAlias(deps, accountId, row, 'alias_cant_delete');
    return;
  }
  const email = await transact(deps.db, async (trx) => {
    const locked = await lockAccountAlias(trx, accountId, aliasId);
    if (!locked) throw new DomainError('alias_not_found');
    if (locked.status !== 'succeed') throw new DomainError('alias_cant_delete');
    await markAliasDeleted(trx, locked.id);
    await deletePasswordAccess(trx, accountId, locked.email);
    return locked.email;
  });
  await aliasRemoved(deps, accountId, email);
}

/**
 * The rule of PUT user/aliases/update_access: sets (the password twice, equal) or removes (`password: null`) password
 * access to one of the account's active aliases, stored with scrypt, within the hourly count of changes
 * (changePasswordAccess). Answers the alias.
 */
export async function changeAliasAccess(
  db: Db,
  accountId: number,
  update: AliasAccessUpdate,
  now = new Date(),
): Promise<AliasEntry> {
  const email = update.email.trim();
  if (!email.includes('@')) throw new DomainError('alias_has_no_at');
  const passwordHash = await accessPasswordHash(update);
  return transact(db, async (trx) => {
    const row = await lockActiveAliasByEmail(trx, accountId, email);
    // An address on a domain is no alias: its password is set on the domain's screen (PUT …/emails/{id}/access).
    if (!row || row.kind === 'domain') throw new DomainError('alias_not_found');
    await changePasswordAccess(trx, accountId, row, passwordHash, now);
    return toAliasEntry(row, passwordHash !== null);
  });
}

/**
 * PUT user/aliases/update_access. Removing the access ends the sessions signed in with it; so does a new password,
 * since whoever knew the old one is to be out.
 */
export async function updateAliasAccess(
  deps: AliasDeps,
  accountId: number,
  update: AliasAccessUpdate,
): Promise<AliasEntry> {
  const alias = await changeAliasAccess(deps.db, accountId, update);
  await endAddressSessions(deps, accountId, alias.email);
  await aliasesChanged(deps, accountId);
  return alias;
}
