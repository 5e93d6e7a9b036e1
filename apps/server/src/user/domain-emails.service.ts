import {
  validateAliasName,
  type DomainEmail,
  type DomainEmailAccess,
  type DomainEmailCreate,
} from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { DnsLookupError, type DnsResolver } from '../core/net/index.js';
import { lockAccount } from '../mailbox/index.js';
import {
  cancelInvoice,
  type InvoicePurposeHandler,
  type InvoiceRow,
  type WalletDeps,
} from '../wallet/index.js';
import {
  accessPasswordHash,
  changePasswordAccess,
  countOwnDomainEmails,
  deleteDelegation,
  deletePasswordAccess,
  findDomainKind,
  findUsableDomain,
  insertDomainEmail,
  isAliasNameTaken,
  lockDomain,
  lockDomainEmail,
  lockDomainEmailById,
  markAliasDeleted,
  setAliasInvoice,
  setCatchAll as setCatchAllRow,
  setDomainEmailStatus,
  type DomainEmailRow,
} from '../addresses/index.js';
import {
  deleteSessionsWhere,
  announceEndedSessions,
  endAddressSessions,
  type SessionDeps,
} from '../auth/index.js';
import { invoiceOfRow, issueInvoice, requirePaidInvoice } from './address-invoices.js';
import { DOMAIN_EMAIL_INVOICE_PURPOSE, domainEmailOf, requireDomain } from './domain-email-views.js';

/**
 * Addresses on domains (SPEC §1, §2 settings/domains/emails/{id}, access; the contract is packages/protocol
 * schemas/domains.ts). Each is an aliases row of kind 'domain': on a verified own domain it starts prepared and
 * receives once its confirm found the domain's MX pointing at MX_HOST; beyond FREE_DOMAIN_EMAILS on own domains, and
 * always on the service's public domains, it is paid first through the wallet ('domain_email' invoices, settled
 * exactly once by the purpose's handler like paid aliases: paid → prepared on an own domain, succeed on a public one;
 * rejected → failed). One address per domain may be its catch-all; password access lets an address-only user sign in;
 * delegation is delegation.service.ts's. Another account's ids are entity_not_found. Every change is told to the
 * owner's tabs (updateAccount 'domains') and, for a delegate, to theirs ('delegated'); what ends an address or its
 * password ends the sessions held to it at once (auth owns sessions, which is why this sits above auth).
 */

export { DOMAIN_EMAIL_INVOICE_PURPOSE } from './domain-email-views.js';

export interface DomainEmailDeps extends WalletDeps, SessionDeps {
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
  dns: DnsResolver;
  /** config.mxHost: what the domain's MX must include before an address there receives. */
  mxHost: string;
  freeDomainEmails: number;
  domainEmailPrice: number;
}

/** The member's tabs told that their domains' addresses ('domains') or those delegated to them ('delegated') changed. */
export async function tell(
  deps: { db: Db; events: EventBus; log: PublishLog },
  accountId: number,
  part: 'domains' | 'delegated',
): Promise<void> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part }]);
}

/** After a change of an address: the address as it is now, and the owner's tabs told. */
async function changed(
  deps: DomainEmailDeps,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<DomainEmail> {
  const email = await domainEmailOf(deps.db, accountId, domainId, emailId);
  await tell(deps, accountId, 'domains');
  return email;
}

const invoiceOf = (db: Db, row: DomainEmailRow) => invoiceOfRow(db, DOMAIN_EMAIL_INVOICE_PURPOSE, row);

/** The address locked in `trx`, or entity_not_found when it is not the account's (or is deleted). */
async function requireLocked(
  trx: Trx,
  accountId: number,
  domainId: number | undefined,
  emailId: number,
): Promise<DomainEmailRow> {
  const row = await lockDomainEmail(trx, accountId, domainId, emailId);
  if (!row) throw new DomainError('entity_not_found');
  return row;
}

/**
 * POST user/domains/{id}/emails: the local part by the alias rules (the stop list on public domains only), on the
 * account's verified domain (domain_not_verified otherwise) or a public one; taken on that domain: duplicate_aliases.
 * Free on an own domain within FREE_DOMAIN_EMAILS (prepared), else unpaid with an invoice issued at the wallet outside
 * the transaction (a wallet out of reach lets the name go at once). catch_all (own domains only) makes it the
 * domain's catch-all.
 */
export async function addDomainEmail(
  deps: DomainEmailDeps,
  accountId: number,
  domainId: number,
  input: DomainEmailCreate,
): Promise<DomainEmail> {
  const created = await transact(deps.db, async (trx) => {
    await lockAccount(trx, accountId);
    const domain = await findUsableDomain(trx, accountId, domainId);
    if (!domain) throw new DomainError('entity_not_found');
    if (domain.kind === 'own' && domain.status !== 'succeed') throw new DomainError('domain_not_verified');
    if (domain.kind === 'public' && input.catch_all) throw new DomainError('forbidden');
    const name = input.name.trim();
    // The stop list guards the service's names: on a public domain; a member's own domain is theirs to name.
    const invalid = validateAliasName(name, { stopList: domain.kind === 'public' });
    if (invalid) throw new DomainError(invalid);
    const email = `${name.toLowerCase()}@${domain.name}`;
    if (await isAliasNameTaken(trx, email)) throw new DomainError('duplicate_aliases');
    const paid =
      domain.kind === 'public' || (await countOwnDomainEmails(trx, accountId)) >= deps.freeDomainEmails;
    let row: DomainEmailRow;
    try {
      row = await insertDomainEmail(trx, {
        accountId,
        domainId,
        email,
        status: paid ? 'unpaid' : 'prepared',
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError('duplicate_aliases');
      throw err;
    }
    if (input.catch_all) {
      await lockDomain(trx, domainId);
      await setCatchAllRow(trx, domainId, row.id);
    }
    return { row, paid };
  });
  if (created.paid) {
    const { row } = created;
    const release = () => transact(deps.db, (trx) => markAliasDeleted(trx, row.id));
    const invoice = await issueInvoice(
      deps,
      {
        accountId,
        purpose: DOMAIN_EMAIL_INVOICE_PURPOSE,
        subjectId: row.id,
        price: deps.domainEmailPrice,
        description: `Mailroom address ${row.email}`,
      },
      release,
    );
    try {
      await transact(deps.db, (trx) => setAliasInvoice(trx, row.id, invoice.id));
    } catch (err) {
      await release();
      throw err;
    }
  }
  return changed(deps, accountId, domainId, created.row.id);
}

/**
 * POST user/domains/emails/{email_id}/confirm: a prepared address on an own domain receives once the domain's MX
 * includes MX_HOST (invalid_domain_for_mail_server otherwise; a resolver failing: confirmation_error). An address
 * already active answers as it is; one unpaid or being paid: error_domain_status_paying.
 */
export async function activateDomainEmail(
  deps: DomainEmailDeps,
  accountId: number,
  emailId: number,
): Promise<DomainEmail> {
  const row = await transact(deps.db, (trx) => requireLocked(trx, accountId, undefined, emailId));
  const domain = await requireDomain(deps.db, accountId, row.domain_id);
  if (row.status === 'unpaid' || row.status === 'paying') throw new DomainError('error_domain_status_paying');
  if (row.status === 'failed') throw new DomainError('confirmation_error');
  if (row.status === 'prepared') {
    if (domain.kind === 'own') {
      if (domain.status !== 'succeed') throw new DomainError('domain_not_verified');
      let hosts: string[];
      try {
        hosts = await deps.dns.mx(domain.name);
      } catch (err) {
        if (err instanceof DnsLookupError) throw new DomainError('confirmation_error');
        throw err;
      }
      if (!hosts.includes(deps.mxHost)) throw new DomainError('invalid_domain_for_mail_server');
    }
    await transact(deps.db, async (trx) => {
      const locked = await lockDomainEmail(trx, accountId, row.domain_id, emailId);
      if (locked?.status === 'prepared') await setDomainEmailStatus(trx, emailId, 'succeed');
    });
  }
  return changed(deps, accountId, row.domain_id, emailId);
}

/** PUT user/domains/{id}/emails/{email_id} {catch_all}: makes it (or stops it being) the domain's catch-all. */
export async function setCatchAll(
  deps: DomainEmailDeps,
  accountId: number,
  domainId: number,
  emailId: number,
  catchAll: boolean,
): Promise<DomainEmail> {
  await transact(deps.db, async (trx) => {
    await requireLocked(trx, accountId, domainId, emailId);
    const domain = await lockDomain(trx, domainId);
    if (!domain || domain.account_id !== accountId) throw new DomainError('forbidden');
    if (catchAll) await setCatchAllRow(trx, domainId, emailId);
    else if (domain.catch_all_alias_id === emailId) await setCatchAllRow(trx, domainId, null);
  });
  return changed(deps, accountId, domainId, emailId);
}

/**
 * DELETE user/domains/{id}/emails/{email_id}: the address refuses mail from now on (RCPT 550), its mail stays, its
 * catch-all role, password access and delegation end, and every session held to it (password and delegated) with
 * them; owner and delegate are told. An unpaid one's invoice is cancelled first (paid meanwhile: alias_cant_delete, so
 * no payment is thrown away unseen); one being paid: error_domain_status_paying.
 */
export async function removeDomainEmail(
  deps: DomainEmailDeps,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<void> {
  const found = await transact(deps.db, (trx) => requireLocked(trx, accountId, domainId, emailId));
  if (found.status === 'paying') throw new DomainError('error_domain_status_paying');
  const issued = found.status === 'unpaid' ? await invoiceOf(deps.db, found) : undefined;
  if (issued) {
    const { invoice } = await cancelInvoice(deps, issued.id);
    if (invoice.status === 'paid')
      throw new DomainError('alias_cant_delete', 'The address has been paid for meanwhile');
  }
  const { email, delegateAccountId } = await transact(deps.db, async (trx) => {
    const row = await requireLocked(trx, accountId, domainId, emailId);
    if (row.status === 'paying') throw new DomainError('error_domain_status_paying');
    const domain = await lockDomain(trx, domainId);
    if (domain?.catch_all_alias_id === row.id) await setCatchAllRow(trx, domainId, null);
    await markAliasDeleted(trx, row.id);
    await deletePasswordAccess(trx, accountId, row.email);
    return { email: row.email, delegateAccountId: await deleteDelegation(trx, row.id) };
  });
  await endAddressSessions(deps, accountId, email);
  await tell(deps, accountId, 'domains');
  if (delegateAccountId !== undefined) await tell(deps, delegateAccountId, 'delegated');
}

/**
 * POST user/domains/{id}/emails/{email_id}/paid ('I have already paid'): the wallet asked and its answer settled (the
 * purpose's handler changes the address and tells of it). Still unpaid: pay_invoice; rejected or expired:
 * pay_invoice_cancel.
 */
export async function checkPayment(
  deps: DomainEmailDeps,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<DomainEmail> {
  const row = await transact(deps.db, (trx) => requireLocked(trx, accountId, domainId, emailId));
  await requirePaidInvoice(deps, await invoiceOf(deps.db, row));
  return domainEmailOf(deps.db, accountId, domainId, emailId);
}

/**
 * PUT user/domains/{id}/emails/{email_id}/access: sets (twice, equal) or removes password access to the address,
 * scrypt-hashed, within the hourly count of changes shared with aliases (changePasswordAccess). Whoever signed in with
 * the old password is out (a delegate is not: they have no password). The rule alone is changeDomainEmailAccess.
 */
export async function setDomainEmailAccess(
  deps: DomainEmailDeps,
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

/** The rule of setDomainEmailAccess: the access changed in one transaction; answers the address. */
export async function changeDomainEmailAccess(
  db: Db,
  accountId: number,
  domainId: number,
  emailId: number,
  update: DomainEmailAccess,
  now = new Date(),
): Promise<DomainEmail> {
  const passwordHash = await accessPasswordHash(update);
  await transact(db, async (trx) => {
    const row = await requireLocked(trx, accountId, domainId, emailId);
    await changePasswordAccess(trx, accountId, row, passwordHash, now);
  });
  return domainEmailOf(db, accountId, domainId, emailId);
}

/**
 * What settling a 'domain_email' invoice does, inside settleInvoice's transaction under the invoice's lock (exactly
 * once per invoice): an address still waiting for its payment becomes prepared (own domain: its MX confirm next) or
 * succeed (a public domain, whose MX is ours), or failed; the owner's tabs told (updateAccount domains) after commit.
 */
export function domainEmailInvoicePurpose(deps: {
  events: EventBus;
  log: PublishLog;
}): InvoicePurposeHandler {
  const settle = async (trx: Trx, invoice: InvoiceRow, outcome: 'paid' | 'failed') => {
    const row = await lockDomainEmailById(trx, invoice.subject_id);
    if (!row || (row.status !== 'unpaid' && row.status !== 'paying')) return;
    const domain = await findDomainKind(trx, row.domain_id);
    const status = outcome === 'failed' ? 'failed' : domain?.kind === 'public' ? 'succeed' : 'prepared';
    await setDomainEmailStatus(trx, row.id, status);
    await emit(trx, deps, row.account_id, [{ event: 'updateAccount', part: 'domains' }]);
  };
  return {
    onPaid: (trx, invoice) => settle(trx, invoice, 'paid'),
    onFailed: (trx, invoice) => settle(trx, invoice, 'failed'),
  };
}
