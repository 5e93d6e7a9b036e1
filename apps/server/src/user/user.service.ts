import type { Account } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { listProfiles, requireAccount, type Principal } from '../accounts/index.js';
import { listAliases } from '../addresses/index.js';

const kb = (bytes: number) => Math.ceil(bytes / 1024);

export async function getAccountView(db: Db, principal: Principal): Promise<Account> {
  const account = await requireAccount(db, principal.accountId);
  const [aliases, profiles] = await Promise.all([listAliases(db, account.id), listProfiles(db, account.id)]);
  const asAlias = principal.aliasEmail;
  return {
    email: asAlias ?? account.email,
    // An alias-only session sees only its own address, never the owner's other identities.
    aliases: asAlias ? aliases.filter((a) => a.email === asAlias) : aliases,
    profiles: profiles
      .filter((p) => !asAlias || p.email === asAlias)
      .map((p) => ({
        id: p.id,
        name: p.name,
        email: p.email,
        signature: p.signature,
        default: p.is_default,
      })),
    settings: account.settings,
    quota: { size: kb(account.quota_used_bytes), limit: kb(account.quota_limit_bytes) },
    // Delegated addresses this account may act as; delegation lands with the domains issue.
    alias_accesses: [],
  };
}
