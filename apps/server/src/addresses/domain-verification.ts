import type { VerificationMethod } from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { DnsLookupError, type AddressPolicy, type DnsResolver } from '../core/net/index.js';
import type { WalletDeps } from '../wallet/index.js';
import { newDkimPair } from './domain-dkim.js';
import { dkimPublicKeyIn, dkimRecordName } from './domain-names.js';
import { proveDomain, type ProofOutcome } from './domain-proof.js';
import {
  insertDomainKeys,
  listDomainKeys,
  lockOwnDomain,
  promoteDomainKey,
  updateDomain,
  type DomainRow,
} from './domains.repository.js';

/**
 * Proving own domains (SPEC §2 settings/domains): a domain is verified by its TXT record or meta tag and then gets its
 * first DKIM pair; a verified one is proven again (the check, the daily job) and fails once its proof stays gone for
 * DOMAIN_GRACE_MS; DKIM keys published for a rotation are promoted once their records are seen. The screen's
 * operations are user/'s; the daily job is domain-upkeep.ts.
 */

export const DAY_MS = 86_400_000;
/** A domain not verified within this long after its confirm fails as expired; a verified one whose proof stays gone, too. */
export const DOMAIN_GRACE_MS = 7 * DAY_MS;

export interface DomainSettings {
  free: number;
  price: number;
  publicDomains: string[];
  siteUrl: string;
  spfInclude: string;
  dkimGraceDays: number;
}

export interface DomainDeps extends WalletDeps {
  mailDomain: string;
  mxHost: string;
  domains: DomainSettings;
  resolver: DnsResolver;
  /** The non-public addresses a domain's site may be on anyway (OUTBOUND_ALLOW_PRIVATE). */
  outboundPolicy: AddressPolicy;
  /** Seals the domains' DKIM private keys (Secrets.dkimKeySecret). */
  dkimKeySecret: string;
  /** The whole fetch of a site for its meta tag (default 5 s). */
  siteTimeoutMs?: number;
}

/** What the resolver answers, or nothing when it fails (the health table shows the record missing). */
export async function dnsAnswers(query: () => Promise<string[]>): Promise<string[]> {
  try {
    return await query();
  } catch (err) {
    if (err instanceof DnsLookupError) return [];
    throw err;
  }
}

function proofDeps(deps: DomainDeps) {
  return {
    resolver: deps.resolver,
    policy: deps.outboundPolicy,
    siteUrl: deps.domains.siteUrl,
    ...(deps.siteTimeoutMs ? { siteTimeoutMs: deps.siteTimeoutMs } : {}),
  };
}

/** A domain proven for the first time: verified, and its first DKIM pair made (keys made before the transaction). */
async function markVerified(deps: DomainDeps, row: DomainRow, now: Date): Promise<void> {
  const existing = await listDomainKeys(deps.db, row.id);
  const keys = existing.length
    ? []
    : await newDkimPair(
        deps.dkimKeySecret,
        now,
        existing.map((k) => k.selector),
      );
  try {
    await transact(deps.db, async (trx) => {
      const locked = await lockOwnDomain(trx, row.id);
      if (!locked || locked.deleted_at) return;
      await updateDomain(trx, row.id, {
        status: 'succeed',
        verified_at: now,
        checked_at: now,
        failure_reason: null,
        failure_found: null,
        unverified_since: null,
      });
      if ((await listDomainKeys(trx, row.id)).length === 0)
        await insertDomainKeys(trx, row.id, 'active', keys);
    });
  } catch (err) {
    // Another account proved the same domain first: it holds it (domains_verified_name).
    if (isUniqueViolation(err)) {
      await updateDomain(deps.db, row.id, { status: 'prepared', checked_at: now });
      throw new DomainError('duplicate_domains');
    }
    throw err;
  }
}

async function markFailed(
  db: Db,
  domainId: number,
  outcome: Exclude<ProofOutcome, { ok: true }> | { reason: 'expired'; found: null },
  now: Date,
): Promise<void> {
  await updateDomain(db, domainId, {
    status: 'failed',
    failure_reason: outcome.reason,
    failure_found: outcome.found?.slice(0, 500) ?? null,
    checked_at: now,
  });
}

/**
 * A verified domain checked again (check, the daily job): proof there → still verified; gone → unverified_since is
 * set and the domain keeps hosting mail; gone for DOMAIN_GRACE_MS → failed (answers true: the caller tells the owner).
 * DKIM keys published for a rotation are promoted once their records are seen.
 */
export async function recheckVerified(
  deps: DomainDeps,
  row: DomainRow,
  now: Date,
): Promise<'ok' | 'missing' | 'failed'> {
  const outcome = await proveDomain(proofDeps(deps), row.method ?? 'dns', row.name, row.token);
  await promoteSeenKeys(deps, row, now);
  if (outcome.ok) {
    await updateDomain(deps.db, row.id, { checked_at: now, unverified_since: null });
    return 'ok';
  }
  const since = row.unverified_since ?? now;
  if (now.getTime() - since.getTime() >= DOMAIN_GRACE_MS) {
    await markFailed(deps.db, row.id, outcome, now);
    return 'failed';
  }
  await updateDomain(deps.db, row.id, { checked_at: now, unverified_since: since });
  return 'missing';
}

/** A domain not verified yet proven by `method` now: verified with its first keys, or failed with the reason. */
export async function verifyDomain(
  deps: DomainDeps,
  row: DomainRow,
  method: VerificationMethod,
  now: Date,
): Promise<void> {
  const outcome = await proveDomain(proofDeps(deps), method, row.name, row.token);
  if (outcome.ok) await markVerified(deps, row, now);
  else await markFailed(deps.db, row.id, outcome, now);
}

/** Next keys whose records the resolver now shows become active; the ones they replace retire. */
export async function promoteSeenKeys(deps: DomainDeps, row: DomainRow, now: Date): Promise<number> {
  const next = (await listDomainKeys(deps.db, row.id)).filter((k) => k.state === 'next');
  let promoted = 0;
  for (const key of next) {
    const found = await dnsAnswers(() => deps.resolver.txt(dkimRecordName(key.selector, row.name)));
    if (!found.some((r) => dkimPublicKeyIn(r) === key.public_key)) continue;
    const retireAt = new Date(now.getTime() + deps.domains.dkimGraceDays * DAY_MS);
    await transact(deps.db, (trx) => promoteDomainKey(trx, key, retireAt));
    promoted++;
  }
  return promoted;
}
