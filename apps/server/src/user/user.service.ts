import type { Account, Settings, SettingsUpdate } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { emit } from '../core/events/index.js';
import { changeSettings, listProfiles, requireAccount, type Principal } from '../accounts/index.js';
import { delegatedEmailsOf, listAliases } from '../addresses/index.js';
import { toProfile, type ProfileDeps } from './profiles.service.js';

const kb = (bytes: number) => Math.ceil(bytes / 1024);

export async function getAccountView(db: Db, principal: Principal): Promise<Account> {
  const account = await requireAccount(db, principal.accountId);
  const ownSession = !principal.aliasEmail && !principal.actorAccountId;
  const [aliases, profiles, delegated] = await Promise.all([
    listAliases(db, account.id),
    listProfiles(db, account.id),
    // What others delegated to this member is theirs to see in their own session only.
    ownSession ? delegatedEmailsOf(db, account.id) : { emails: [] },
  ]);
  const asAlias = principal.aliasEmail;
  const isAlias = (email: string) => email.toLowerCase() === asAlias?.toLowerCase();
  return {
    email: asAlias ?? account.email,
    // An alias-only session sees only its own address, never the owner's other identities.
    aliases: asAlias ? aliases.filter((a) => isAlias(a.email)) : aliases,
    profiles: profiles.filter((p) => !asAlias || isAlias(p.email)).map(toProfile),
    settings: account.settings,
    quota: { size: kb(account.quota_used_bytes), limit: kb(account.quota_limit_bytes) },
    // Addresses other members delegated to this one (POST /auth/delegated opens each).
    alias_accesses: delegated.emails.map((e) => e.email),
  };
}

/** Saves the settings given and tells the owner's other tabs, which read them again. */
export async function saveSettings(
  deps: ProfileDeps,
  accountId: number,
  update: SettingsUpdate,
): Promise<Settings> {
  const settings = await changeSettings(deps.db, accountId, update);
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'settings' }]);
  return settings;
}
