import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DelegatedEmailsResponse, DomainEmail, UserInfo } from '@mailroom/protocol';
import { transact } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { findAccountByMemberId, getUserInfo, requireAccount, type Principal } from '../accounts/index.js';
import {
  activeAddressOwner,
  delegatedEmailsOf,
  deleteDelegation,
  insertDelegation,
  lockDelegatedAddress,
  lockDomainEmail,
} from '../addresses/index.js';
import {
  adoptSession,
  announceEndedSessions,
  createSwitchedSession,
  returnDelegatedSessions,
  recordSignIns,
  signInClientOf,
  type SessionDeps,
} from '../auth/index.js';
import { domainEmailOf } from './domain-email-views.js';
import { tell, type DomainEmailDeps } from './domain-emails.service.js';

/**
 * Delegation of an address on a domain (SPEC §2 settings/d_emails): one other member reads and sends as the address
 * in their own session. Setting, replacing or removing the delegate tells both members' tabs ('delegated', and the
 * owner's 'domains'); the one who loses it is out of the address at once. Opening a delegated address (POST
 * /auth/delegated) switches the session the way impersonation does.
 */

/**
 * The delegate's sessions in the address go back to the delegate's own mailbox at once (signed in still), and their
 * tabs hear of it: their websockets close, and the app finds itself in its own mailbox.
 */
async function endDelegateSessions(
  deps: DomainEmailDeps,
  ownerAccountId: number,
  delegateAccountId: number,
  email: string,
): Promise<void> {
  const ids = await returnDelegatedSessions(deps.db, {
    accountId: ownerAccountId,
    email,
    actorAccountId: delegateAccountId,
  });
  await announceEndedSessions(deps, ids);
  await tell(deps, delegateAccountId, 'delegated');
}

/**
 * PATCH user/domains/{id}/emails/{email_id} {member_id}: sets or replaces the delegate (a member with an account, else
 * invalid_member_id2; oneself: delegate_self); null removes it. Answers the address.
 */
export async function delegateDomainEmail(
  deps: DomainEmailDeps,
  accountId: number,
  domainId: number,
  emailId: number,
  memberId: string | null,
): Promise<DomainEmail> {
  const delegate = memberId === null ? undefined : await findAccountByMemberId(deps.db, memberId);
  const { address, previous, current } = await transact(deps.db, async (trx) => {
    const row = await lockDomainEmail(trx, accountId, domainId, emailId);
    // Whose the address is comes first: another account's id tells nothing about members.
    if (!row) throw new DomainError('entity_not_found');
    if (memberId !== null && !delegate) throw new DomainError('invalid_member_id2');
    if (delegate?.id === accountId) throw new DomainError('delegate_self');
    const previous = await deleteDelegation(trx, row.id);
    if (delegate) await insertDelegation(trx, row.id, delegate.id);
    return { address: row.email, previous, current: delegate?.id };
  });
  const email = await domainEmailOf(deps.db, accountId, domainId, emailId);
  if (previous !== undefined && previous !== current)
    await endDelegateSessions(deps, accountId, previous, address);
  if (current !== undefined) await tell(deps, current, 'delegated');
  await tell(deps, accountId, 'domains');
  return email;
}

/** The member who really signed in, from their own session or a delegated or impersonating one (not a password one). */
function signedInMember(principal: Principal): number {
  if (principal.aliasEmail && !principal.actorAccountId) throw new DomainError('forbidden');
  return principal.actorAccountId ?? principal.accountId;
}

/** GET user/delegated-emails (settings/d_emails): the active addresses other members delegated to this one. */
export function delegatedEmails(
  deps: DomainEmailDeps,
  principal: Principal,
): Promise<DelegatedEmailsResponse> {
  return delegatedEmailsOf(deps.db, signedInMember(principal));
}

/**
 * POST /auth/delegated {email}: the session opens the owner's mailbox held to that address, the delegate recorded as
 * actor (scopeOf keeps it to the address while the delegation lasts). Written under the delegation's lock, so a
 * revocation racing it ends the new session too. Both auth logs record it (a refused one: the delegate's, and the
 * owner's of that address); not delegated to this member: forbidden.
 */
export async function openDelegated(
  deps: SessionDeps & { log: DomainEmailDeps['log'] },
  http: { request: FastifyRequest; reply: FastifyReply },
  principal: Principal,
  email: string,
): Promise<UserInfo> {
  const delegate = await requireAccount(deps.db, signedInMember(principal));
  const wanted = email.trim().toLowerCase();
  const opened = await transact(deps.db, async (trx) => {
    const address = await lockDelegatedAddress(trx, delegate.id, wanted);
    if (!address) return undefined;
    const target: Principal = {
      accountId: address.account_id,
      aliasEmail: address.email,
      actorAccountId: delegate.id,
    };
    return { target, session: await createSwitchedSession(trx, deps.config, http.request, target) };
  });
  const ownerId = opened?.target.accountId ?? (await activeAddressOwner(deps.db, wanted));
  const owner = ownerId !== undefined ? await requireAccount(deps.db, ownerId) : undefined;
  const success = opened !== undefined;
  const address = opened?.target.aliasEmail ?? wanted;
  await recordSignIns(deps.db, signInClientOf(http.request), [
    {
      accountId: delegate.id,
      method: 'impersonation',
      success,
      address,
      memberId: owner?.member_id ?? null,
    },
    ...(owner && owner.id !== delegate.id
      ? [
          {
            accountId: owner.id,
            method: 'impersonation' as const,
            success,
            address,
            memberId: delegate.member_id,
          },
        ]
      : []),
  ]);
  if (!opened) throw new DomainError('forbidden');
  await adoptSession(deps, http, opened.session);
  return getUserInfo(deps.db, opened.target);
}
