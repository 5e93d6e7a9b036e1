import type { BlobStore } from '../core/blobs/index.js';
import { transact, type Db } from '../core/db/index.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { sendNotice } from '../mailbox/index.js';
import { getSettings, requireAccount } from '../accounts/index.js';
import { openDkimPrivateKey } from './domain-dkim.js';
import {
  activeKeysOfDomainName,
  deleteRetiredKeys,
  syncPublicDomains,
  unverifiedSince,
  updateDomain,
  verifiedDomains,
  type DomainRow,
} from './domains.repository.js';
import { newDomainToken } from './domain-proof.js';
import { DOMAIN_GRACE_MS, recheckVerified, type DomainDeps } from './domain-verification.js';

/**
 * The daily work on own domains (one recurring job across processes): every verified domain proven again (a proof
 * gone for 7 days fails it), a domain not proven 7 days after its confirm failed as expired, keys published for a
 * rotation promoted once seen, retired keys removed. The owner of a domain that failed is told by a notice in the
 * Inbox, in the account's language.
 */
export interface DomainUpkeepDeps extends DomainDeps {
  blobs: BlobStore;
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
}

export interface DomainUpkeepResult {
  rechecked: number;
  failed: number;
  expired: number;
  retiredKeys: number;
}

const texts = {
  expired: {
    en: (d: string) => ({
      subject: `Domain ${d} was not verified`,
      text: `The domain ${d} was not verified within 7 days, so its verification has stopped. Publish the record shown in Settings → Domains and verify it again.`,
    }),
    ru: (d: string) => ({
      subject: `Домен ${d} не подтверждён`,
      text: `Домен ${d} не был подтверждён за 7 дней, и его проверка остановлена. Опубликуйте запись из раздела Настройки → Домены и подтвердите его снова.`,
    }),
  },
  lost: {
    en: (d: string) => ({
      subject: `Domain ${d} is no longer verified`,
      text: `For 7 days we have not found the verification record of ${d}, so the domain is no longer verified: its addresses do not receive mail. Publish the record shown in Settings → Domains again and verify the domain.`,
    }),
    ru: (d: string) => ({
      subject: `Домен ${d} больше не подтверждён`,
      text: `7 дней мы не находим запись подтверждения домена ${d}, поэтому домен больше не подтверждён: его адреса не получают почту. Снова опубликуйте запись из раздела Настройки → Домены и подтвердите домен.`,
    }),
  },
};

async function tellOwner(deps: DomainUpkeepDeps, row: DomainRow, kind: keyof typeof texts): Promise<void> {
  const accountId = row.account_id!;
  const account = await requireAccount(deps.db, accountId);
  const language = (await getSettings(deps.db, accountId)).language === 'ru' ? 'ru' : 'en';
  const { subject, text } = texts[kind][language](row.display_name);
  await sendNotice(deps, deps.mailDomain, accountId, { to: account.email, subject, text: `${text}\n` });
}

export async function runDomainUpkeep(deps: DomainUpkeepDeps, now = new Date()): Promise<DomainUpkeepResult> {
  const result: DomainUpkeepResult = { rechecked: 0, failed: 0, expired: 0, retiredKeys: 0 };
  const changed = new Set<number>();
  for (const row of await verifiedDomains(deps.db)) {
    try {
      const outcome = await recheckVerified(deps, row, now);
      result.rechecked++;
      changed.add(row.account_id!);
      if (outcome === 'failed') {
        result.failed++;
        await tellOwner(deps, row, 'lost');
      }
    } catch (err) {
      deps.log.warn({ err, domain: row.name }, 'a domain re-check failed');
    }
  }
  for (const row of await unverifiedSince(deps.db, new Date(now.getTime() - DOMAIN_GRACE_MS))) {
    await updateDomain(deps.db, row.id, {
      status: 'failed',
      failure_reason: 'expired',
      failure_found: null,
      checked_at: now,
    });
    result.expired++;
    changed.add(row.account_id!);
    await tellOwner(deps, row, 'expired');
  }
  result.retiredKeys = await deleteRetiredKeys(deps.db, now);
  for (const accountId of changed)
    await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'domains' }]);
  return result;
}

export interface DomainSigningKey {
  domain: string;
  selector: string;
  algorithm: 'rsa' | 'ed25519';
  /** PKCS#8 PEM. */
  privateKey: string;
}

/**
 * The keys mail From `domain` is signed with when it is a verified own domain: its active RSA and Ed25519 keys
 * (empty otherwise: the operator's `dkim set` key, if any, signs instead).
 */
export async function domainSigningKeys(
  db: Db,
  dkimKeySecret: string,
  domain: string,
): Promise<DomainSigningKey[]> {
  const rows = await activeKeysOfDomainName(db, domain.toLowerCase());
  return rows.map((row) => ({
    domain: domain.toLowerCase(),
    selector: row.selector,
    algorithm: row.algorithm,
    privateKey: openDkimPrivateKey(dkimKeySecret, row.private_key),
  }));
}

/** PUBLIC_DOMAINS kept as rows (at start-up). */
export function syncPublicDomainRows(db: Db, names: readonly string[]): Promise<void> {
  return transact(db, (trx) => syncPublicDomains(trx, names, newDomainToken));
}
