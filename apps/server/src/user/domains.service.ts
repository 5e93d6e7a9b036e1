import type {
  Domain,
  DomainDetailResponse,
  DomainsResponse,
  PublicDomainsResponse,
  VerificationMethod,
} from '@mailroom/protocol';
import { DOMAIN_DELETE_WORD } from '@mailroom/protocol';
import { isUniqueViolation, transact, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { lockAccount } from '../mailbox/index.js';
import { passportLevelAtLeast, passportLevelOf } from '../accounts/index.js';
import { cancelInvoice, type InvoicePurposeHandler, type InvoiceRow } from '../wallet/index.js';
import {
  countFreeDomains,
  hasUnpaidDomain,
  insertDomain,
  insertDomainKeys,
  isServiceDomain,
  listAccountDomains,
  listDomainKeys,
  listPublicDomains as publicDomainNames,
  lockAccountDomain,
  lockOwnDomain,
  nameHolding,
  newDkimPair,
  newDomainToken,
  parseDomainName,
  recheckVerified,
  removeDomainRows,
  updateDomain,
  verifyDomain,
  type DomainDeps,
  type DomainRow,
} from '../addresses/index.js';
import { endAddressSessions } from '../auth/index.js';
import { issueInvoice, requirePaidInvoice } from './address-invoices.js';
import {
  DOMAIN_INVOICE_PURPOSE,
  domainDetailOf,
  invoiceOf,
  requireDomain,
  toDomain,
} from './domain-views.js';

/**
 * Own domains as settings/domains works them (SPEC §1, §2; the contract is packages/protocol schemas/domains.ts):
 * added by a member of at least formal passport level, proven by a TXT record or a meta tag (addresses/
 * domain-verification.ts), then hosting mail signed with the domain's own DKIM keys. The first FREE_DOMAINS are free,
 * each further one is paid through the wallet like a paid alias (the 'domain' invoice purpose's handler is the one
 * place a paid domain's payment changes it, and tells of it). Every change is told to the owner's other tabs
 * (updateAccount, part domains); removing a domain ends the open sessions of its addresses (password access) and
 * tells the members who had one of them delegated (part delegated).
 */

export { DOMAIN_INVOICE_PURPOSE } from './domain-views.js';

export interface DomainRouteDeps extends DomainDeps {
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
}

async function changed(deps: DomainRouteDeps, accountId: number): Promise<void> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'domains' }]);
}

/** GET user/domains. */
export async function listDomains(deps: DomainRouteDeps, accountId: number): Promise<DomainsResponse> {
  const rows = await listAccountDomains(deps.db, accountId);
  return { domains: await Promise.all(rows.map((row) => toDomain(deps, row, row.emails_count))) };
}

/** GET user/domains/public. */
export async function listPublicDomains(deps: DomainRouteDeps): Promise<PublicDomainsResponse> {
  return { domains: await publicDomainNames(deps.db) };
}

/** GET user/domains/{id}: the domain, its DNS health, its DKIM keys and the zone snippet. */
export function showDomain(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
): Promise<DomainDetailResponse> {
  return domainDetailOf(deps, accountId, domainId);
}

/**
 * POST user/domains: the contract's rules in order — a public DNS name (invalid_domain), not the service's
 * (domain_hosted), a passport of at least formal level, not this account's already nor verified by another
 * (duplicate_domains), and beyond FREE_DOMAINS one unpaid at a time (error_domain_status_paying). Under the account
 * row's lock; a paid one gets its invoice from the wallet after the commit (dropped again if the wallet fails).
 */
export async function createDomain(
  deps: DomainRouteDeps,
  accountId: number,
  rawName: string,
): Promise<Domain> {
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
      return await insertDomain(trx, { accountId, name, displayName, token: newDomainToken(), paid });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('duplicate_domains');
      throw err;
    }
  });
  let domain: Domain;
  if (!row.paid) domain = await toDomain(deps, row, 0);
  else {
    const invoice = await issueInvoice(
      deps,
      {
        accountId,
        purpose: DOMAIN_INVOICE_PURPOSE,
        subjectId: row.id,
        price: deps.domains.price,
        description: `Mailroom domain ${row.display_name}`,
      },
      () => updateDomain(deps.db, row.id, { deleted_at: new Date() }),
    );
    await updateDomain(deps.db, row.id, { invoice_id: invoice.id });
    domain = await toDomain(deps, { ...row, invoice_id: invoice.id }, 0);
  }
  await changed(deps, accountId);
  return domain;
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
 * POST user/domains/{id}/paid ('I have already paid'): the wallet asked and the answer settled (a change is told by the
 * purpose's handler, not here). Still unpaid: pay_invoice; rejected, expired or cancelled: pay_invoice_cancel; a free
 * domain: entity_not_found.
 */
export async function checkPayment(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
): Promise<Domain> {
  const row = await requireDomain(deps.db, accountId, domainId);
  const issued = await invoiceOf(deps.db, row);
  if (!row.paid) throw new DomainError('entity_not_found');
  await requirePaidInvoice(deps, issued);
  return (await listDomains(deps, accountId)).domains.find((d) => d.id === domainId)!;
}

/**
 * POST user/domains/{id}/confirm {method}, and POST user/domains/{id}/check (no method: the last confirm's again, dns
 * before any). Verification starts (waiting) and runs now; the answer
 * is the domain as it came out (succeed, or failed with the reason), and the owner's tabs are told whatever came out.
 * The first confirm starts the 7 days the domain has to be proven; a verified domain is proven again.
 */
export async function confirmDomain(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
  wanted: VerificationMethod | undefined,
  now = new Date(),
): Promise<DomainDetailResponse> {
  try {
    const row = await requireDomain(deps.db, accountId, domainId);
    const method = wanted ?? row.method ?? 'dns';
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
      await verifyDomain(deps, { ...row, method }, method, now);
    }
    return await domainDetailOf(deps, accountId, domainId);
  } finally {
    await changed(deps, accountId);
  }
}

/**
 * POST user/domains/{id}/dkim/rotate: a new RSA and Ed25519 pair published first (state next); each signs once its
 * record is seen in DNS (check, the daily job), when the key it replaces retires for DKIM_GRACE_DAYS. A rotation
 * already under way is answered as it stands.
 */
export async function rotateDkim(
  deps: DomainRouteDeps,
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
  const detail = await domainDetailOf(deps, accountId, domainId);
  await changed(deps, accountId);
  return detail;
}

/**
 * DELETE user/domains/{id}?confirm=delete: the domain, its addresses (their mail stays), their delegations and
 * password access and its keys go in one transaction; an unpaid invoice is cancelled first. The addresses' open
 * sessions end, and the members who had one delegated are told.
 */
export async function deleteDomain(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
  confirmWord: string | undefined,
): Promise<void> {
  if (confirmWord?.trim().toLowerCase() !== DOMAIN_DELETE_WORD) throw new DomainError('delete_word_required');
  const row = await requireDomain(deps.db, accountId, domainId);
  if (row.status === 'paying') throw new DomainError('error_domain_status_paying');
  if (row.status === 'unpaid') {
    const invoice = await invoiceOf(deps.db, row);
    if (invoice?.status === 'unpaid') await cancelInvoice(deps, invoice.id);
  }
  const { emails, delegateAccountIds } = await transact(deps.db, async (trx) => {
    const locked = await lockAccountDomain(trx, accountId, domainId);
    if (!locked) throw new DomainError('entity_not_found');
    if (locked.status === 'paying') throw new DomainError('error_domain_status_paying');
    return removeDomainRows(trx, accountId, domainId, new Date());
  });
  for (const email of emails) await endAddressSessions(deps, accountId, email);
  await changed(deps, accountId);
  for (const delegate of delegateAccountIds)
    await emit(deps.db, deps, delegate, [{ event: 'updateAccount', part: 'delegated' }]);
}
