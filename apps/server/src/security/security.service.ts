import type { FastifyReply, FastifyRequest } from 'fastify';
import type {
  AccountPart,
  BaListResponse,
  SecurityResponse,
  SharedMailboxesResponse,
  UserInfo,
} from '@mailroom/protocol';
import type { Config } from '../config.js';
import { transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus } from '../core/events/index.js';
import type { Secrets } from '../core/secrets.js';
import {
  findAccountByMemberId,
  getUserInfo,
  passportLevelOf,
  requireAccount,
  setAccountNames,
  type AccountRow,
  type Principal,
} from '../accounts/index.js';
import type { WalletGateway } from '../wallet/index.js';
import { passwordAccessAccount } from '../addresses/index.js';
import { codesLockedUntil } from './password-codes.repository.js';
import {
  adoptSession,
  announceEndedSessions,
  createSwitchedSession,
  deleteSessionsWhere,
  recordSignIns,
  signInClientOf,
} from '../auth/index.js';
import {
  deleteGrant,
  grantorsOf,
  grantsOf,
  insertGrant,
  lockGrant,
  type GrantKind,
} from './grants.repository.js';

export interface SecurityDeps {
  config: Config;
  db: Db;
  events: EventBus;
  wallet: WalletGateway;
  secrets: Secrets;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** GET user/settings/security: what the security section shows; every change answers it again. */
export async function getSecurity(db: Db, accountId: number): Promise<SecurityResponse> {
  const account = await requireAccount(db, accountId);
  const [passwordOwner, passportLevel, impersonation, ba, lockedUntil] = await Promise.all([
    passwordAccessAccount(db, account.email),
    passportLevelOf(db, accountId),
    grantsOf(db, accountId, 'mailbox'),
    grantsOf(db, accountId, 'ba'),
    codesLockedUntil(db, accountId, new Date()),
  ]);
  const grant = (g: { member_id: string; granted_at: Date }) => ({
    member_id: g.member_id,
    granted_at: new Date(g.granted_at).toISOString(),
  });
  return {
    has_password: passwordOwner === accountId,
    password_email: account.email,
    ...namesOf(account),
    passport_level: passportLevel,
    password_codes_locked_until: lockedUntil ? new Date(lockedUntil).toISOString() : null,
    impersonation: impersonation.map(grant),
    ba_impersonation: ba.map(grant),
  };
}

/** Tells the account's tabs a part of it changed, once `db`'s transaction has committed (at once outside one). */
export function tellPart(
  db: Db | Trx,
  deps: Pick<SecurityDeps, 'events' | 'log'>,
  accountId: number,
  part: AccountPart,
) {
  return emit(db, deps, accountId, [{ event: 'updateAccount', part }]);
}

/**
 * The member's first and last name as Security shows them: those saved, or before any was saved those of the
 * display name the account was made with ("Ann Lee" → Ann, Lee; a one-word name is the first name). An address
 * standing in for a name gives none.
 */
export function namesOf(account: { first_name: string; last_name: string; name: string }) {
  if (account.first_name || account.last_name)
    return { first_name: account.first_name, last_name: account.last_name };
  const words = account.name.includes('@') ? [] : account.name.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return { first_name: words[0] ?? '', last_name: '' };
  return { first_name: words.slice(0, -1).join(' '), last_name: words.at(-1)! };
}

/** POST user/settings/security/userinfo: the names, and the display name made of them. */
export async function updateUserInfo(
  deps: SecurityDeps,
  accountId: number,
  names: { first_name: string; last_name: string },
): Promise<SecurityResponse> {
  await setAccountNames(deps.db, accountId, { firstName: names.first_name, lastName: names.last_name });
  await tellPart(deps.db, deps, accountId, 'security');
  return getSecurity(deps.db, accountId);
}

/**
 * The account a grant names, if the member ID has one yet; one's own member ID is refused (invalid_member_id2). An
 * unknown member ID is no error: a grant must not tell whether a member ID exists (issue 28), so it is answered and
 * stored like any other, and takes effect once that member signs in to Mailroom (member IDs come from the identity
 * provider: a member may exist there before they ever open their mailbox). The security section lists it as the
 * owner typed it, so a mistyped ID is there to see and revoke. The lookup is made for both, so both do the same work.
 */
async function grantee(db: Db, accountId: number, memberId: string): Promise<AccountRow | undefined> {
  const owner = await requireAccount(db, accountId);
  if (memberId === owner.member_id) throw new DomainError('invalid_member_id2');
  return findAccountByMemberId(db, memberId);
}

/** Tells the owner's tabs (security) and the grantee's (their shared mailboxes) of a grant's change. */
async function tellBoth(trx: Trx, deps: SecurityDeps, accountId: number, other: AccountRow | undefined) {
  await tellPart(trx, deps, accountId, 'security');
  if (other) await tellPart(trx, deps, other.id, 'shared');
}

/**
 * POST …/impersonation and …/ba-impersonation (`granted`): the member may open the mailbox, or act for the bank
 * accounts; the same answer for a member ID that has no account yet (see `grantee`). DELETE of them: no longer.
 * Revoking impersonation ends at once every session in which that member has this mailbox open: the grant and the
 * sessions go in one transaction (an impersonation being opened holds the grant's row, so it either finishes first
 * and is ended here, or finds no grant), then every process closes their websockets.
 */
export async function setGrant(
  deps: SecurityDeps,
  accountId: number,
  kind: GrantKind,
  memberId: string,
  granted: boolean,
): Promise<SecurityResponse> {
  const other = await grantee(deps.db, accountId, memberId);
  const ended = await transact(deps.db, async (trx) => {
    if (granted) await insertGrant(trx, accountId, kind, memberId);
    else await deleteGrant(trx, accountId, kind, memberId);
    await tellBoth(trx, deps, accountId, other);
    if (granted || kind !== 'mailbox') return [];
    // A member ID with no account has no sessions: the same statement, matching none (account ids start at 1).
    return deleteSessionsWhere(trx, {
      kind: 'impersonation',
      ownerAccountId: accountId,
      actorAccountId: other?.id ?? 0,
    });
  });
  await announceEndedSessions(deps, ended);
  return getSecurity(deps.db, accountId);
}

/**
 * GET ba-list: the member's own bank accounts, and those of each member who granted this one BA-impersonation, as the
 * wallet reports them.
 */
export async function listBankAccounts(deps: SecurityDeps, accountId: number): Promise<BaListResponse> {
  const account = await requireAccount(deps.db, accountId);
  const owners = await grantorsOf(deps.db, account.member_id, 'ba');
  const [own, ...others] = await Promise.all([
    deps.wallet.bankAccounts(account.member_id),
    ...owners.map((o) => deps.wallet.bankAccounts(o.member_id)),
  ]);
  return {
    bank_accounts: own!,
    acting_for: owners.map((o, i) => ({ member_id: o.member_id, name: o.name, bank_accounts: others[i]! })),
  };
}

/** The member who really signed in: the actor of an impersonating session, else the session's own account. */
function signedInAccountId(principal: Principal): number {
  if (principal.aliasEmail) throw new DomainError('forbidden');
  return principal.actorAccountId ?? principal.accountId;
}

/** GET user/shared-mailboxes: the mailboxes shared with the member who signed in (also while in one of them). */
export async function sharedMailboxes(db: Db, principal: Principal): Promise<SharedMailboxesResponse> {
  const account = await requireAccount(db, signedInAccountId(principal));
  const owners = await grantorsOf(db, account.member_id, 'mailbox');
  return { mailboxes: owners.map((o) => ({ member_id: o.member_id, email: o.email, name: o.name })) };
}

type Http = { request: FastifyRequest; reply: FastifyReply };

/**
 * POST /auth/impersonate: the session now opens the mailbox of `memberId`, which must have granted this member
 * impersonation (else forbidden). The new session's principal is the owner's account with the actor recorded; both
 * auth logs record the switch (a refused one: the actor's, and the owner's when the member exists).
 */
export async function impersonate(
  deps: SecurityDeps,
  http: Http,
  principal: Principal,
  memberId: string,
): Promise<UserInfo> {
  const actor = await requireAccount(deps.db, signedInAccountId(principal));
  if (memberId === actor.member_id) throw new DomainError('invalid_member_id2');
  const owner = await findAccountByMemberId(deps.db, memberId);
  const target: Principal = { accountId: owner?.id ?? 0, aliasEmail: null, actorAccountId: actor.id };
  const session = owner
    ? await transact(deps.db, async (trx) =>
        (await lockGrant(trx, owner.id, 'mailbox', actor.member_id))
          ? createSwitchedSession(trx, deps.config, http.request, target)
          : undefined,
      )
    : undefined;
  const success = session !== undefined;
  await recordSignIns(deps.db, signInClientOf(http.request), [
    { accountId: actor.id, method: 'impersonation', success, address: owner?.email ?? null, memberId },
    ...(owner
      ? [
          {
            accountId: owner.id,
            method: 'impersonation' as const,
            success,
            address: owner.email,
            memberId: actor.member_id,
          },
        ]
      : []),
  ]);
  if (!session) throw new DomainError('forbidden');
  await adoptSession(deps, http, session);
  return getUserInfo(deps.db, target);
}

/** POST /auth/impersonate/end: back to one's own mailbox; both logs record it (the address: the mailbox returned to). */
export async function endImpersonation(
  deps: SecurityDeps,
  http: Http,
  principal: Principal,
): Promise<UserInfo> {
  if (!principal.actorAccountId) throw new DomainError('invalid_request_params', 'Not in a shared mailbox');
  const [owner, actor] = await Promise.all([
    requireAccount(deps.db, principal.accountId),
    requireAccount(deps.db, principal.actorAccountId),
  ]);
  const own: Principal = { accountId: actor.id, aliasEmail: null };
  const session = await createSwitchedSession(deps.db, deps.config, http.request, own);
  await adoptSession(deps, http, session);
  await recordSignIns(deps.db, signInClientOf(http.request), [
    {
      accountId: actor.id,
      method: 'impersonation',
      success: true,
      address: actor.email,
      memberId: owner.member_id,
    },
    {
      accountId: owner.id,
      method: 'impersonation',
      success: true,
      address: actor.email,
      memberId: actor.member_id,
    },
  ]);
  return getUserInfo(deps.db, own);
}
