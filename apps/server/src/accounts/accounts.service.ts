import {
  MAIL_QUOTA_BYTES,
  defaultSettings,
  type Settings,
  type SettingsUpdate,
  type UserInfo,
} from '@mailroom/protocol';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { createSystemFolders, lockAccount } from '../mailbox/index.js';
import {
  findAccountById,
  findAccountByMemberId,
  insertAccount,
  mergeAccountSettings,
  updateAccountNames,
  type AccountRow,
} from './accounts.repository.js';
import { insertProfile, renameProfilesNamed } from './profiles.repository.js';

export type { AccountRow } from './accounts.repository.js';

/**
 * Who is asking: the account whose mailbox the session opens, the address when signed in by password access to one
 * address, and, while the session has opened another member's mailbox (impersonation), the account of the member who
 * really signed in (`accountId` is then the owner's).
 */
export interface Principal {
  accountId: number;
  aliasEmail: string | null;
  actorAccountId?: number | null;
}

/**
 * Settings, profiles, folders, labels, whole-folder and search-wide actions are for the mailbox
 * owner (SPEC §6): a session held to one address gets `forbidden`.
 */
export function requireFullSession(principal: Principal): Principal {
  if (principal.aliasEmail) throw new DomainError('forbidden');
  return principal;
}

/** The account of a principal that must be the mailbox owner. */
export const ownerOnly = (principal: Principal): number => requireFullSession(principal).accountId;

/**
 * The account's security (passwords, names, the sign-in log, grants of access, aliases, support) is the member's own
 * (SPEC §6): a session held to one address and one opened by impersonation get `forbidden` — a delegate never grants
 * further access, sets passwords or reads the owner's sign-in log.
 */
export function ownAccountOnly(principal: Principal): number {
  if (principal.aliasEmail || principal.actorAccountId) throw new DomainError('forbidden');
  return principal.accountId;
}

export function primaryAddress(memberId: string, mailDomain: string): string {
  return `${memberId}@${mailDomain}`;
}

/**
 * Returns the member's account, provisioning the mailbox on first sign-in: primary address,
 * system folders, 1 GB quota, default settings and a default profile, all in one transaction.
 * Safe when two sign-ins race: the loser finds the winner's account.
 */
export async function ensureAccount(
  db: Db,
  input: {
    memberId: string;
    name: string;
    mailDomain: string;
    undoSendSeconds?: Settings['undo_send_seconds'];
  },
): Promise<{ account: AccountRow; created: boolean }> {
  const existing = await findAccountByMemberId(db, input.memberId);
  if (existing) return { account: existing, created: false };
  const email = primaryAddress(input.memberId, input.mailDomain);
  const created = await transact(db, async (trx) => {
    const id = await insertAccount(trx, {
      memberId: input.memberId,
      name: input.name,
      email,
      settings: {
        ...defaultSettings,
        undo_send_seconds: input.undoSendSeconds ?? defaultSettings.undo_send_seconds,
      },
      quotaLimitBytes: MAIL_QUOTA_BYTES,
    });
    if (id === undefined) return false;
    await createSystemFolders(trx, id);
    await insertProfile(trx, { accountId: id, name: input.name, email, isDefault: true });
    return true;
  });
  const account = await findAccountByMemberId(db, input.memberId);
  if (!account) throw new DomainError('user_create_error');
  return { account, created };
}

export async function requireAccount(db: Db, accountId: number): Promise<AccountRow> {
  const account = await findAccountById(db, accountId);
  if (!account) throw new DomainError('invalid_auth_cookie');
  return account;
}

export async function getUserInfo(db: Db, principal: Principal): Promise<UserInfo> {
  const account = await requireAccount(db, principal.accountId);
  const actor = principal.actorAccountId ? await findAccountById(db, principal.actorAccountId) : undefined;
  if (principal.aliasEmail) {
    // A delegated address (issue 17) names the delegate too, so the app offers the way back.
    return {
      email: principal.aliasEmail,
      member_id: null,
      name: principal.aliasEmail,
      info: {
        alias: principal.aliasEmail,
        ...(actor ? { impersonator: { member_id: actor.member_id, email: actor.email } } : {}),
      },
    };
  }
  return {
    email: account.email,
    member_id: account.member_id,
    name: account.name,
    info: {
      alias: null,
      ...(actor ? { impersonator: { member_id: actor.member_id, email: actor.email } } : {}),
    },
  };
}

/** The member's first and last name; the display name becomes "first last" (kept as it was when both are empty). */
export async function setAccountNames(
  db: Db,
  accountId: number,
  names: { firstName: string; lastName: string },
): Promise<AccountRow> {
  const full = [names.firstName, names.lastName].filter(Boolean).join(' ');
  await transact(db, async (trx) => {
    await lockAccount(trx, accountId);
    const account = await requireAccount(trx, accountId);
    const name = full || account.name;
    await updateAccountNames(trx, accountId, { ...names, name });
    // Profiles are sender identities of their own (SPEC §1): those still named as the account was follow the new
    // name (the default one, made from it at sign-up, among them); a profile renamed by hand keeps its name.
    if (name !== account.name) await renameProfilesNamed(trx, accountId, account.name, name);
  });
  return requireAccount(db, accountId);
}

export async function getSettings(db: Db, accountId: number): Promise<Settings> {
  return (await requireAccount(db, accountId)).settings;
}

/** Saves the settings given, keeping the others (two saves at once each keep what the other changed). */
export async function changeSettings(db: Db, accountId: number, update: SettingsUpdate): Promise<Settings> {
  const stored = await mergeAccountSettings(db, accountId, update);
  if (!stored) throw new DomainError('invalid_auth_cookie');
  return { ...defaultSettings, ...stored };
}
