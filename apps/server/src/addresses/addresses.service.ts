import type { DelegatedEmailsResponse } from '@mailroom/protocol';
import type { Db, Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import type { Scope } from '../mailbox/index.js';
import { findAccountById, listProfiles, type Principal } from '../accounts/index.js';
import { aliasBelongsTo, listAliases } from './aliases.repository.js';
import { findActiveAddressOwner, findDelegatedAddress, listDelegatedTo } from './domain-emails.repository.js';

export { listAliases };

/** An address an account may send as, with the alias it belongs to (null: the primary address). */
export interface SenderAddress {
  email: string;
  name: string;
  aliasId: number | null;
}

/**
 * The addresses an account may send as: its primary address, its active aliases and addresses on domains, then the
 * addresses other members delegated to it (aliasId null: what the delegate sends from their own session is their
 * own mail, its Sent copy in their own Sent), each with the display name of its profile (the default one first),
 * else the account's name. A profile names an address; it never makes one sendable by itself (a profile left on an
 * address the account no longer has sends nothing).
 */
export async function senderAddressesOf(db: Db, accountId: number): Promise<SenderAddress[]> {
  const [account, aliases, profiles, delegated] = await Promise.all([
    findAccountById(db, accountId),
    listAliases(db, accountId),
    listProfiles(db, accountId),
    listDelegatedTo(db, accountId),
  ]);
  if (!account) return [];
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const nameOf = (email: string) => profiles.find((p) => same(p.email, email))?.name ?? account.name;
  return [
    { email: account.email, name: nameOf(account.email), aliasId: null },
    ...aliases.map((a) => ({ email: a.email, name: nameOf(a.email), aliasId: a.id })),
    ...delegated.map((d) => ({ email: d.email, name: nameOf(d.email), aliasId: null })),
  ];
}

/**
 * Which of the account's own addresses this is: the primary one (aliasId null), an alias or an address on a domain;
 * undefined when the address is not (or no longer) the account's. An address delegated to the account is not its own.
 */
export async function ownAddress(
  db: Db,
  accountId: number,
  email: string,
): Promise<{ aliasId: number | null } | undefined> {
  const wanted = email.toLowerCase();
  const account = await findAccountById(db, accountId);
  if (account?.email.toLowerCase() === wanted) return { aliasId: null };
  const alias = (await listAliases(db, accountId)).find((a) => a.email.toLowerCase() === wanted);
  return alias ? { aliasId: alias.id } : undefined;
}

/**
 * The part of the mailbox a principal sees (the one place that decides it): the owner (and whoever impersonates the
 * whole mailbox) all of it; a session with password access to one address, the mail to that address, whether it is
 * the primary address, an alias or an address on a domain; a delegated session (the address and the delegate as
 * actor), the mail to that address while it is still delegated to that actor; an address no longer the account's, or
 * a delegation taken back, nothing.
 */
export async function scopeOf(db: Db, principal: Principal): Promise<Scope> {
  if (!principal.aliasEmail) return { kind: 'all' };
  if (principal.actorAccountId) {
    const delegated = await findDelegatedAddress(
      db,
      principal.actorAccountId,
      principal.aliasEmail,
      principal.accountId,
    );
    return delegated ? { kind: 'address', aliasId: delegated.id } : { kind: 'none' };
  }
  const address = await ownAddress(db, principal.accountId, principal.aliasEmail);
  return address ? { kind: 'address', aliasId: address.aliasId } : { kind: 'none' };
}

/**
 * A list narrowed by the owner to one address (`a_id` of SPEC §7: 'all', 0 for the primary
 * address, or an alias id), within the scope the principal has (scopeOf). An id that is not one
 * of the account's aliases is refused (a folder list: entity_not_found) or matches nothing (search
 * and label lists, which find nothing rather than fail).
 */
export async function narrowScope(
  db: Db,
  accountId: number,
  scope: Scope,
  aId: 'all' | number,
  foreign: 'refuse' | 'nothing' = 'refuse',
): Promise<Scope> {
  // A session held to one address stays there whatever a_id says.
  if (scope.kind !== 'all' || aId === 'all') return scope;
  if (aId === 0) return { kind: 'address', aliasId: null };
  if (!(await aliasBelongsTo(db, accountId, aId))) {
    if (foreign === 'nothing') return { kind: 'none' };
    throw new DomainError('entity_not_found');
  }
  return { kind: 'address', aliasId: aId };
}

/** GET user/delegated-emails (settings/d_emails): the active addresses other members delegated to this one. */
export async function delegatedEmailsOf(db: Db, accountId: number): Promise<DelegatedEmailsResponse> {
  const rows = await listDelegatedTo(db, accountId);
  return {
    emails: rows.map((r) => ({
      email: r.email,
      owner: { member_id: r.owner_member_id, name: r.owner_name },
      since: new Date(r.created_at).toISOString(),
    })),
  };
}

/**
 * The active address delegated to the member, locked in `trx` (a revocation waits for the session being opened under
 * it, then ends that too); undefined when it is not delegated to them.
 */
export function lockDelegatedAddress(
  trx: Trx,
  delegateAccountId: number,
  email: string,
): Promise<{ id: number; account_id: number; email: string } | undefined> {
  return findDelegatedAddress(trx, delegateAccountId, email, undefined, true);
}

/** The account holding the active address (for the auth log of a refused delegated opening). */
export async function activeAddressOwner(db: Db, email: string): Promise<number | undefined> {
  return (await findActiveAddressOwner(db, email))?.account_id;
}
