import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  DelegatedEmailsResponse,
  DomainEmail,
  DomainEmailAccess,
  DomainEmailCreate,
  UserInfo,
} from '@mailroom/protocol';
import { transact } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { getUserInfo, requireAccount, type Principal } from '../accounts/index.js';
import {
  activeAddressOwner,
  changeDomainEmailAccess,
  checkDomainEmailPayment,
  confirmDomainEmail,
  createDomainEmail,
  delegatedEmailsOf,
  deleteDomainEmail,
  allDomainEmailsOf,
  domainEmailsOf,
  lockDelegatedAddress,
  setDomainEmailDelegate,
  updateDomainEmail,
  type DomainEmailDeps,
} from '../addresses/index.js';
import {
  adoptSession,
  announceEndedSessions,
  createSwitchedSession,
  deleteSessionsWhere,
  endAddressSessions,
  returnDelegatedSessions,
  recordSignIns,
  signInClientOf,
  type SessionDeps,
} from '../auth/index.js';

/**
 * Addresses on domains and their delegation as the settings screens work them (the rules are addresses/'s): every
 * change is told to the owner's tabs (updateAccount 'domains') and, for a delegation, to the delegate's ('delegated');
 * what ends an address, its password or its delegation ends the sessions held to it at once (auth owns sessions,
 * which is why this sits above auth). Opening a delegated address (POST /auth/delegated) switches the session the way
 * impersonation does.
 */
export interface DomainEmailRouteDeps extends DomainEmailDeps, SessionDeps {
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
}

async function tell(
  deps: DomainEmailRouteDeps,
  accountId: number,
  part: 'domains' | 'delegated',
): Promise<void> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part }]);
}

/**
 * The delegate's sessions in the address go back to the delegate's own mailbox at once (signed in still), and their
 * tabs hear of it: their websockets close, and the app finds itself in its own mailbox.
 */
async function endDelegateSessions(
  deps: DomainEmailRouteDeps,
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

/** GET user/domains/emails: the account's addresses on every domain. */
export function listAllDomainEmails(deps: DomainEmailRouteDeps, accountId: number): Promise<DomainEmail[]> {
  return allDomainEmailsOf(deps.db, accountId);
}

export function listDomainEmails(
  deps: DomainEmailRouteDeps,
  accountId: number,
  domainId: number,
): Promise<DomainEmail[]> {
  return domainEmailsOf(deps.db, accountId, domainId);
}

export async function addDomainEmail(
  deps: DomainEmailRouteDeps,
  accountId: number,
  domainId: number,
  input: DomainEmailCreate,
): Promise<DomainEmail> {
  const email = await createDomainEmail(deps, accountId, domainId, input);
  await tell(deps, accountId, 'domains');
  return email;
}

export async function activateDomainEmail(
  deps: DomainEmailRouteDeps,
  accountId: number,
  emailId: number,
): Promise<DomainEmail> {
  const email = await confirmDomainEmail(deps, accountId, emailId);
  await tell(deps, accountId, 'domains');
  return email;
}

export async function setCatchAll(
  deps: DomainEmailRouteDeps,
  accountId: number,
  domainId: number,
  emailId: number,
  catchAll: boolean,
): Promise<DomainEmail> {
  const email = await updateDomainEmail(deps.db, accountId, domainId, emailId, catchAll);
  await tell(deps, accountId, 'domains');
  return email;
}

/** The address gone: every session held to it (password and delegated) ends; owner and delegate are told. */
export async function removeDomainEmail(
  deps: DomainEmailRouteDeps,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<void> {
  const { email, delegateAccountId } = await deleteDomainEmail(deps, accountId, domainId, emailId);
  await endAddressSessions(deps, accountId, email);
  await tell(deps, accountId, 'domains');
  if (delegateAccountId !== undefined) await tell(deps, delegateAccountId, 'delegated');
}

/** 'I have already paid': a change of the address is told by the purpose's handler. */
export function checkPayment(
  deps: DomainEmailRouteDeps,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<DomainEmail> {
  return checkDomainEmailPayment(deps, accountId, domainId, emailId);
}

/** A new password or none: whoever signed in with the old one is out (a delegate is not: they have no password). */
export async function setDomainEmailAccess(
  deps: DomainEmailRouteDeps,
  accountId: number,
  domainId: number,
  emailId: number,
  update: DomainEmailAccess,
): Promise<DomainEmail> {
  const email = await changeDomainEmailAccess(deps.db, accountId, domainId, emailId, update);
  const ids = await deleteSessionsWhere(deps.db, {
    kind: 'address',
    accountId,
    email: email.email,
    actorAccountId: null,
  });
  await announceEndedSessions(deps, ids);
  await tell(deps, accountId, 'domains');
  return email;
}

/** Sets, replaces or removes the delegate; the one who loses it is out of the address at once. */
export async function delegateDomainEmail(
  deps: DomainEmailRouteDeps,
  accountId: number,
  domainId: number,
  emailId: number,
  memberId: string | null,
): Promise<DomainEmail> {
  const { email, address, previous, current } = await setDomainEmailDelegate(
    deps.db,
    accountId,
    domainId,
    emailId,
    memberId,
  );
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

export function delegatedEmails(
  deps: DomainEmailRouteDeps,
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
  deps: SessionDeps & { log: DomainEmailRouteDeps['log'] },
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
