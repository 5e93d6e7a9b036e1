import { randomBytes } from 'node:crypto';
import type {
  DnsCheck,
  Domain,
  DomainDetailResponse,
  DomainDkimKey,
  DomainsResponse,
  PublicDomainsResponse,
  VerificationMethod,
} from '@mailroom/protocol';
import { DOMAIN_DELETE_WORD } from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { DnsLookupError, type AddressPolicy, type DnsResolver } from '../core/net/index.js';
import { lockAccount } from '../mailbox/index.js';
import { passportLevelAtLeast, passportLevelOf, requireAccount } from '../accounts/index.js';
import {
  cancelInvoice,
  checkInvoice,
  createInvoice,
  findInvoice,
  invoicesForSubject,
  invoiceView,
  type InvoicePurposeHandler,
  type InvoiceRow,
  type WalletDeps,
} from '../wallet/index.js';
import { newDkimPair } from './domain-dkim.js';
import {
  DMARC_VALUE,
  dkimPublicKeyIn,
  dkimRecordName,
  dkimTxtValue,
  isServiceDomain,
  parseDomainName,
  spfIncludes,
  spfValue,
  spfWithInclude,
  splitTxt,
  verificationOf,
  zoneSnippet,
} from './domain-names.js';
import { proveDomain, verificationTokensIn, type ProofOutcome } from './domain-proof.js';
import {
  countFreeDomains,
  findAccountDomain,
  hasUnpaidDomain,
  insertDomain,
  insertDomainKeys,
  listAccountDomains,
  listDomainKeys,
  listPublicDomains,
  lockAccountDomain,
  lockOwnDomain,
  nameHolding,
  promoteDomainKey,
  removeDomainRows,
  syncPublicDomains,
  updateDomain,
  type DomainKeyRow,
  type DomainRow,
} from './domains.repository.js';

/**
 * Own domains (SPEC §1, §2 settings/domains; the contract is packages/protocol schemas/domains.ts): added by a member
 * of at least formal passport level, proven by a TXT record or a meta tag, then hosting mail signed with the domain's
 * own DKIM keys. The first FREE_DOMAINS are free, each further one is paid through the wallet like a paid alias (the
 * 'domain' invoice purpose's handler is the one place a paid domain's payment changes it). Addresses on domains,
 * catch-all and delegation are built on these rows elsewhere in this area.
 */

export const DOMAIN_INVOICE_PURPOSE = 'domain';
const WALLET_CURRENCY = 'USD';
const DAY_MS = 86_400_000;
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

// ---- views ----

async function invoiceOf(db: Db, row: DomainRow): Promise<InvoiceRow | undefined> {
  if (!row.paid) return undefined;
  if (row.invoice_id !== null) return findInvoice(db, { invoiceId: row.invoice_id });
  return (await invoicesForSubject(db, DOMAIN_INVOICE_PURPOSE, row.id)).at(-1);
}

async function toDomain(deps: DomainDeps, row: DomainRow, emailsCount: number): Promise<Domain> {
  const invoice = await invoiceOf(deps.db, row);
  return {
    id: row.id,
    name: row.name,
    display_name: row.display_name,
    status: row.status,
    method: row.method,
    verification: verificationOf(row.name, row.token, deps.domains.siteUrl),
    failure:
      row.status === 'failed' && row.failure_reason
        ? { reason: row.failure_reason, found: row.failure_found }
        : null,
    verified_at: row.verified_at?.toISOString() ?? null,
    checked_at: row.checked_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    paid: row.paid,
    invoice: invoice ? invoiceView(invoice) : null,
    catch_all_email_id: row.catch_all_alias_id,
    emails_count: emailsCount,
  };
}

/** GET user/domains. */
export async function domainsOf(deps: DomainDeps, accountId: number): Promise<DomainsResponse> {
  const rows = await listAccountDomains(deps.db, accountId);
  return { domains: await Promise.all(rows.map((row) => toDomain(deps, row, row.emails_count))) };
}

async function requireDomain(db: Db, accountId: number, domainId: number): Promise<DomainRow> {
  const row = await findAccountDomain(db, accountId, domainId);
  if (!row) throw new DomainError('entity_not_found');
  return row;
}

/** What the resolver answers, or nothing when it fails (the health table shows the record missing). */
async function lookup(query: () => Promise<string[]>): Promise<string[]> {
  try {
    return await query();
  } catch (err) {
    if (err instanceof DnsLookupError) return [];
    throw err;
  }
}

function keyView(row: DomainRow, key: DomainKeyRow): DomainDkimKey {
  return {
    selector: key.selector,
    algorithm: key.algorithm,
    state: key.state,
    dns_name: dkimRecordName(key.selector, row.name),
    dns_value: splitTxt(dkimTxtValue(key.algorithm, key.public_key)),
    created_at: key.created_at.toISOString(),
    retire_at: key.retire_at?.toISOString() ?? null,
  };
}

/** The DNS health of a domain, record by record, asked of the resolver now. */
async function dnsHealth(deps: DomainDeps, row: DomainRow, keys: DomainKeyRow[]): Promise<DnsCheck[]> {
  const { name } = row;
  const verification = verificationOf(name, row.token, deps.domains.siteUrl);
  const [txt, mx, dmarc, ...dkim] = await Promise.all([
    lookup(() => deps.resolver.txt(name)),
    lookup(() => deps.resolver.mx(name)),
    lookup(() => deps.resolver.txt(`_dmarc.${name}`)),
    ...keys.map((k) => lookup(() => deps.resolver.txt(dkimRecordName(k.selector, name)))),
  ]);
  const proven = row.status === 'succeed' && row.unverified_since === null;
  const spf = txt.filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));
  const spfOk = spf.length === 1 && spfIncludes(spf[0]!, deps.domains.spfInclude);
  const checks: DnsCheck[] = [
    row.method === 'meta'
      ? {
          kind: 'verification',
          type: 'TXT',
          name: verification.url,
          expected: verification.meta_tag,
          found: [],
          ok: proven,
        }
      : {
          kind: 'verification',
          type: 'TXT',
          name,
          expected: verification.txt_value,
          found: txt.filter((r) => verificationTokensIn([r]).length > 0),
          ok: verificationTokensIn(txt).includes(row.token),
        },
    { kind: 'mx', type: 'MX', name, expected: deps.mxHost, found: mx, ok: mx.includes(deps.mxHost) },
    {
      kind: 'spf',
      type: 'TXT',
      name,
      expected: spfValue(deps.domains.spfInclude),
      found: spf,
      ok: spfOk,
      ...(!spfOk && spf.length > 0 ? { suggested: spfWithInclude(spf, deps.domains.spfInclude) } : {}),
    },
    ...keys.map((key, i): DnsCheck => ({
      kind: 'dkim',
      type: 'TXT',
      name: dkimRecordName(key.selector, name),
      expected: dkimTxtValue(key.algorithm, key.public_key),
      found: dkim[i]!,
      ok: dkim[i]!.some((r) => dkimPublicKeyIn(r) === key.public_key),
    })),
    {
      kind: 'dmarc',
      type: 'TXT',
      name: `_dmarc.${name}`,
      expected: DMARC_VALUE,
      found: dmarc,
      ok: dmarc.some((r) => /^v=DMARC1\s*(;|$)/i.test(r.trim())),
    },
  ];
  return checks;
}

/** GET user/domains/{id}: the domain, its DNS health, its DKIM keys and the zone snippet. */
export async function domainDetailOf(
  deps: DomainDeps,
  accountId: number,
  domainId: number,
): Promise<DomainDetailResponse> {
  const row = await requireDomain(deps.db, accountId, domainId);
  const count =
    (await listAccountDomains(deps.db, accountId)).find((d) => d.id === row.id)?.emails_count ?? 0;
  const keys = await listDomainKeys(deps.db, row.id);
  const dkim = keys.map((k) => keyView(row, k));
  return {
    domain: await toDomain(deps, row, count),
    dns: await dnsHealth(deps, row, keys),
    dkim,
    zone: zoneSnippet({
      name: row.name,
      verification:
        row.method === 'meta' ? undefined : verificationOf(row.name, row.token, deps.domains.siteUrl),
      mxHost: deps.mxHost,
      spfInclude: deps.domains.spfInclude,
      dkim: dkim.map((k) => ({ name: k.dns_name, value: k.dns_value })),
    }),
  };
}

/** GET user/domains/public. */
export async function publicDomainsOf(db: Db): Promise<PublicDomainsResponse> {
  return { domains: await listPublicDomains(db) };
}

/** PUBLIC_DOMAINS kept as rows (at start-up). */
export function syncPublicDomainRows(db: Db, names: readonly string[]): Promise<void> {
  return transact(db, (trx) => syncPublicDomains(trx, names, newToken));
}

const newToken = () => randomBytes(16).toString('hex');

// ---- adding ----

/**
 * POST user/domains: the contract's rules in order — a public DNS name (invalid_domain), not the service's
 * (domain_hosted), a passport of at least formal level, not this account's already nor verified by another
 * (duplicate_domains), and beyond FREE_DOMAINS one unpaid at a time (error_domain_status_paying). Under the account
 * row's lock; a paid one gets its invoice from the wallet after the commit (dropped again if the wallet fails).
 */
export async function addDomain(deps: DomainDeps, accountId: number, rawName: string): Promise<Domain> {
  const parsed = parseDomainName(rawName);
  if (!parsed) throw new DomainError('invalid_domain');
  const { name, displayName } = parsed;
  if (isServiceDomain(name, deps.mailDomain, deps.domains.publicDomains))
    throw new DomainError('domain_hosted');
  const row = await transact(deps.db, async (trx) => {
    await lockAccount(trx, accountId);
    if (!passportLevelAtLeast(await passportLevelOf(trx, accountId), 'formal'))
      throw new DomainError('passport_level_required');
    const holding = await nameHolding(trx, accountId, name);
    if (holding === 'public') throw new DomainError('domain_hosted');
    if (holding) throw new DomainError('duplicate_domains');
    const paid = (await countFreeDomains(trx, accountId)) >= deps.domains.free;
    if (paid && (await hasUnpaidDomain(trx, accountId))) throw new DomainError('error_domain_status_paying');
    try {
      return await insertDomain(trx, { accountId, name, displayName, token: newToken(), paid });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('duplicate_domains');
      throw err;
    }
  });
  if (!row.paid) return toDomain(deps, row, 0);
  let invoice: InvoiceRow;
  try {
    const account = await requireAccount(deps.db, accountId);
    invoice = await createInvoice(deps, {
      accountId,
      memberId: account.member_id,
      purpose: DOMAIN_INVOICE_PURPOSE,
      subjectId: row.id,
      amount: deps.domains.price.toFixed(2),
      currency: WALLET_CURRENCY,
      description: `Mailroom domain ${row.display_name}`,
    });
  } catch (err) {
    await updateDomain(deps.db, row.id, { deleted_at: new Date() });
    throw err;
  }
  await updateDomain(deps.db, row.id, { invoice_id: invoice.id });
  return toDomain(deps, { ...row, invoice_id: invoice.id }, 0);
}

/** A paid domain whose invoice is not paid (unpaid, being paid, or rejected) may not be verified. */
async function requirePaidFor(deps: DomainDeps, row: DomainRow): Promise<void> {
  if (row.status === 'unpaid' || row.status === 'paying') throw new DomainError('error_domain_status_paying');
  if (!row.paid) return;
  const invoice = await invoiceOf(deps.db, row);
  if (invoice?.status !== 'paid') throw new DomainError('error_domain_status_paying');
}

/**
 * The 'domain' invoice purpose: paid → the domain may be verified (prepared); rejected, expired or cancelled → failed.
 * Inside settleInvoice's transaction, exactly once per invoice whatever reported it; the owner's tabs told after.
 */
export function domainInvoicePurpose(deps: { events: EventBus; log: PublishLog }): InvoicePurposeHandler {
  const settle = async (trx: Trx, invoice: InvoiceRow, status: 'prepared' | 'failed') => {
    const domain = await lockOwnDomain(trx, invoice.subject_id);
    if (!domain || (domain.status !== 'unpaid' && domain.status !== 'paying')) return;
    await updateDomain(trx, domain.id, { status });
    await emit(trx, deps, domain.account_id!, [{ event: 'updateAccount', part: 'domains' }]);
  };
  return {
    onPaid: (trx, invoice) => settle(trx, invoice, 'prepared'),
    onFailed: (trx, invoice) => settle(trx, invoice, 'failed'),
  };
}

/**
 * POST user/domains/{id}/paid ('I have already paid'): the wallet asked and the answer settled. Still unpaid:
 * pay_invoice; rejected, expired or cancelled: pay_invoice_cancel; a free domain: entity_not_found.
 */
export async function checkDomainPayment(
  deps: DomainDeps,
  accountId: number,
  domainId: number,
): Promise<Domain> {
  const row = await requireDomain(deps.db, accountId, domainId);
  const issued = await invoiceOf(deps.db, row);
  if (!row.paid) throw new DomainError('entity_not_found');
  if (!issued) throw new DomainError('pay_invoice');
  const { invoice } = await checkInvoice(deps, issued.id);
  if (invoice.status === 'unpaid') throw new DomainError('pay_invoice');
  if (invoice.status !== 'paid') throw new DomainError('pay_invoice_cancel');
  return (await domainsOf(deps, accountId)).domains.find((d) => d.id === domainId)!;
}

// ---- verification ----

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

async function verify(
  deps: DomainDeps,
  row: DomainRow,
  method: VerificationMethod,
  now: Date,
): Promise<void> {
  const outcome = await proveDomain(proofDeps(deps), method, row.name, row.token);
  if (outcome.ok) await markVerified(deps, row, now);
  else await markFailed(deps.db, row.id, outcome, now);
}

/**
 * POST user/domains/{id}/confirm {method}: verification starts (waiting) and runs now; the answer is the domain as it
 * came out (succeed, or failed with the reason). The first confirm starts the 7 days the domain has to be proven.
 */
export async function confirmDomain(
  deps: DomainDeps,
  accountId: number,
  domainId: number,
  method: VerificationMethod,
  now = new Date(),
): Promise<DomainDetailResponse> {
  const row = await requireDomain(deps.db, accountId, domainId);
  await requirePaidFor(deps, row);
  if (row.status === 'succeed') {
    if (row.method !== method) await updateDomain(deps.db, row.id, { method });
    await recheckVerified(deps, { ...row, method }, now);
  } else {
    const restart = row.confirm_started_at === null || row.failure_reason === 'expired';
    await updateDomain(deps.db, row.id, {
      status: 'waiting',
      method,
      ...(restart ? { confirm_started_at: now } : {}),
    });
    await verify(deps, { ...row, method }, method, now);
  }
  return domainDetailOf(deps, accountId, domainId);
}

/** POST user/domains/{id}/check: the last confirm's method again (dns before any confirm). */
export async function checkDomain(
  deps: DomainDeps,
  accountId: number,
  domainId: number,
  now = new Date(),
): Promise<DomainDetailResponse> {
  const row = await requireDomain(deps.db, accountId, domainId);
  return confirmDomain(deps, accountId, domainId, row.method ?? 'dns', now);
}

// ---- DKIM rotation ----

/**
 * POST user/domains/{id}/dkim/rotate: a new RSA and Ed25519 pair published first (state next); each signs once its
 * record is seen in DNS (check, the daily job), when the key it replaces retires for DKIM_GRACE_DAYS. A rotation
 * already under way is answered as it stands.
 */
export async function rotateDomainDkim(
  deps: DomainDeps,
  accountId: number,
  domainId: number,
  now = new Date(),
): Promise<DomainDetailResponse> {
  const row = await requireDomain(deps.db, accountId, domainId);
  if (row.status !== 'succeed') throw new DomainError('domain_not_verified');
  const keys = await listDomainKeys(deps.db, row.id);
  if (!keys.some((k) => k.state === 'next')) {
    const pair = await newDkimPair(
      deps.dkimKeySecret,
      now,
      keys.map((k) => k.selector),
    );
    await transact(deps.db, async (trx) => {
      const locked = await lockAccountDomain(trx, accountId, domainId);
      if (!locked) throw new DomainError('entity_not_found');
      if ((await listDomainKeys(trx, row.id)).some((k) => k.state === 'next')) return;
      await insertDomainKeys(trx, row.id, 'next', pair);
    });
  }
  return domainDetailOf(deps, accountId, domainId);
}

/** Next keys whose records the resolver now shows become active; the ones they replace retire. */
export async function promoteSeenKeys(deps: DomainDeps, row: DomainRow, now: Date): Promise<number> {
  const next = (await listDomainKeys(deps.db, row.id)).filter((k) => k.state === 'next');
  let promoted = 0;
  for (const key of next) {
    const found = await lookup(() => deps.resolver.txt(dkimRecordName(key.selector, row.name)));
    if (!found.some((r) => dkimPublicKeyIn(r) === key.public_key)) continue;
    const retireAt = new Date(now.getTime() + deps.domains.dkimGraceDays * DAY_MS);
    await transact(deps.db, (trx) => promoteDomainKey(trx, key, retireAt));
    promoted++;
  }
  return promoted;
}

// ---- removal ----

/**
 * DELETE user/domains/{id}?confirm=delete: the domain, its addresses (their mail stays), their delegations and
 * password access and its keys go in one transaction; an unpaid invoice is cancelled first. Answers the addresses
 * (their sessions end: the caller) and the members who had one delegated.
 */
export async function removeDomain(
  deps: DomainDeps,
  accountId: number,
  domainId: number,
  confirmWord: string | undefined,
): Promise<{ emails: string[]; delegateAccountIds: number[] }> {
  if (confirmWord?.trim().toLowerCase() !== DOMAIN_DELETE_WORD) throw new DomainError('delete_word_required');
  const row = await requireDomain(deps.db, accountId, domainId);
  if (row.status === 'paying') throw new DomainError('error_domain_status_paying');
  if (row.status === 'unpaid') {
    const invoice = await invoiceOf(deps.db, row);
    if (invoice?.status === 'unpaid') await cancelInvoice(deps, invoice.id);
  }
  return transact(deps.db, async (trx) => {
    const locked = await lockAccountDomain(trx, accountId, domainId);
    if (!locked) throw new DomainError('entity_not_found');
    if (locked.status === 'paying') throw new DomainError('error_domain_status_paying');
    return removeDomainRows(trx, accountId, domainId, new Date());
  });
}
