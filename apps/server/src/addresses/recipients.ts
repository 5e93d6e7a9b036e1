import type { Config } from '../config.js';
import type { Db } from '../core/db/index.js';
import { findAccountByEmail, findAccountById } from '../accounts/index.js';
import { findAliasByEmail } from './aliases.repository.js';
import { isServedDomain, resolveDomainRecipient } from './domain-emails.repository.js';

/** A mailbox of ours that accepts the address. `aliasId` null: the account's primary address. */
export interface LocalRecipient {
  address: string;
  accountId: number;
  aliasId: number | null;
  quotaLimitBytes: number;
  quotaUsedBytes: number;
}

export type RecipientResolution =
  | { kind: 'local'; recipient: LocalRecipient }
  /** A domain we host, but no mailbox has the address. */
  | { kind: 'unknown' }
  /** Not a domain we host: accepting it would make us an open relay. */
  | { kind: 'foreign' }
  | { kind: 'invalid' };

/**
 * Whether mail for this domain is ours to keep: MAIL_DOMAIN, a verified own domain (succeed, not deleted) or one of the
 * service's public domains. Everything else is foreign (relaying it would make us an open relay).
 */
export async function isHostedDomain(db: Db, config: Config, domain: string): Promise<boolean> {
  const name = domain.toLowerCase();
  return name === config.mailDomain || isServedDomain(db, name);
}

// eslint-disable-next-line no-control-regex
const controlOrSpace = /[\u0000-\u0020\u007f]/;

/** Splits `local@domain`; undefined for anything that is not one plain address. */
export function splitAddress(address: string): { local: string; domain: string } | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1 || address.length > 320 || controlOrSpace.test(address)) {
    return undefined;
  }
  return { local: address.slice(0, at), domain: address.slice(at + 1) };
}

/**
 * Primary addresses (`accounts.email`) and active aliases, case-insensitively; on a hosted domain other than the mail
 * domain, its active address of that name, else its active catch-all (one query). An alias or address unpaid,
 * prepared, failed or deleted is no mailbox: its mail is refused at RCPT like any unknown address.
 */
export async function resolveRecipient(
  db: Db,
  config: Config,
  address: string,
): Promise<RecipientResolution> {
  const parts = splitAddress(address);
  if (!parts) return { kind: 'invalid' };
  const email = address.toLowerCase();
  const domain = parts.domain.toLowerCase();
  if (domain !== config.mailDomain) {
    const row = await resolveDomainRecipient(db, domain, email);
    if (!row) return { kind: 'foreign' };
    const aliasId = row.direct_id ?? row.catch_all_id;
    if (aliasId === null || row.account_id === null) return { kind: 'unknown' };
    return {
      kind: 'local',
      recipient: {
        address: email,
        accountId: row.account_id,
        aliasId,
        quotaLimitBytes: Number(row.quota_limit_bytes),
        quotaUsedBytes: Number(row.quota_used_bytes),
      },
    };
  }
  const primary = await findAccountByEmail(db, email);
  const alias = primary ? undefined : await findAliasByEmail(db, email);
  const account = primary ?? (alias && (await findAccountById(db, alias.account_id)));
  if (!account) return { kind: 'unknown' };
  return {
    kind: 'local',
    recipient: {
      address: email,
      accountId: account.id,
      aliasId: alias ? alias.id : null,
      quotaLimitBytes: account.quota_limit_bytes,
      quotaUsedBytes: account.quota_used_bytes,
    },
  };
}
