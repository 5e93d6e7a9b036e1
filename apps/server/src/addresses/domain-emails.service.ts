import {
  validateAliasName,
  type DelegatedEmailsResponse,
  type DomainEmail,
  type DomainEmailAccess,
  type DomainEmailCreate,
} from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { DnsLookupError, type DnsResolver } from '../core/net/index.js';
import { hashPassword } from '../core/password-hash.js';
import { lockAccount } from '../mailbox/index.js';
import { findAccountByMemberId, requireAccount } from '../accounts/index.js';
import {
  cancelInvoice,
  checkInvoice,
  createInvoice,
  findInvoice,
  invoicesForSubject,
  invoicesForSubjects,
  invoiceView,
  type InvoicePurposeHandler,
  type InvoiceRow,
  type WalletDeps,
} from '../wallet/index.js';
import { deletePasswordAccess, upsertPasswordAccess } from './addresses.repository.js';
import {
  countAccessChanges,
  isAliasNameTaken,
  markAliasDeleted,
  recordAccessChange,
  setAliasInvoice,
} from './aliases.repository.js';
import { ALIAS_ACCESS_CHANGES_PER_HOUR } from './aliases.service.js';
import {
  countOwnDomainEmails,
  deleteDelegation,
  findActiveAddressOwner,
  findDelegatedAddress,
  findDomainKind,
  findUsableDomain,
  insertDomainEmail,
  listDelegatedTo,
  listDomainEmails,
  lockDomain,
  lockDomainEmail,
  lockDomainEmailById,
  setCatchAll,
  setDomainEmailStatus,
  insertDelegation,
  type DomainEmailRow,
  type DomainRef,
} from './domain-emails.repository.js';
import { WALLET_CURRENCY } from './paid-aliases.service.js';

/**
 * Addresses on domains (SPEC §1, §2 settings/domains/emails/{id}, d_emails, access; the contract is packages/protocol
 * schemas/domains.ts). Each is an aliases row of kind 'domain': on a verified own domain it starts prepared and
 * receives once its confirm found the domain's MX pointing at MX_HOST; beyond FREE_DOMAIN_EMAILS on own domains, and
 * always on the service's public domains, it is paid first through the wallet ('domain_email' invoices, settled
 * exactly once by the purpose's handler like paid aliases: paid → prepared on an own domain, succeed on a public one;
 * rejected → failed). One address per domain may be its catch-all. Delegation lets one other member read and send as
 * the address; password access lets an address-only user sign in. Another account's ids are entity_not_found.
 */

export const DOMAIN_EMAIL_INVOICE_PURPOSE = 'domain_email';
const ACCESS_WINDOW_MS = 3600_000;

export interface DomainEmailDeps extends WalletDeps {
  dns: DnsResolver;
  /** config.mxHost: what the domain's MX must include before an address there receives. */
  mxHost: string;
  freeDomainEmails: number;
  domainEmailPrice: number;
}

type ListedRow = Awaited<ReturnType<typeof listDomainEmails>>[number];

async function invoiceOf(db: Db, row: DomainEmailRow): Promise<InvoiceRow | undefined> {
  if (row.invoice_id !== null) return findInvoice(db, { invoiceId: row.invoice_id });
  return (await invoicesForSubject(db, DOMAIN_EMAIL_INVOICE_PURPOSE, row.id)).at(-1);
}

/** The rows as the screens show them, their invoices read in one query (the one set on the row, else the newest). */
async function toDomainEmails(db: Db, rows: ListedRow[]): Promise<DomainEmail[]> {
  const invoices = await invoicesForSubjects(
    db,
    DOMAIN_EMAIL_INVOICE_PURPOSE,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const issued = invoices.filter((invoice) => invoice.subject_id === row.id);
    const invoice = row.invoice_id !== null ? issued.find((i) => i.id === row.invoice_id) : issued.at(-1);
    return {
      id: row.id,
      domain_id: row.domain_id,
      email: row.email,
      status: row.status,
      catch_all: row.catch_all,
      password_access: row.password_access,
      delegate:
        row.delegate_member_id !== null
          ? { member_id: row.delegate_member_id, name: row.delegate_name ?? '' }
          : null,
      paid: invoice !== undefined || row.status === 'unpaid',
      invoice: invoice ? invoiceView(invoice) : null,
      created_at: row.created_at.toISOString(),
    };
  });
}

async function requireDomain(db: Db, accountId: number, domainId: number): Promise<DomainRef> {
  const domain = await findUsableDomain(db, accountId, domainId);
  if (!domain) throw new DomainError('entity_not_found');
  return domain;
}

/** GET user/domains/{id}/emails: the account's addresses on its domain (or on a public domain), oldest first. */
export async function domainEmailsOf(db: Db, accountId: number, domainId: number): Promise<DomainEmail[]> {
  await requireDomain(db, accountId, domainId);
  return toDomainEmails(db, await listDomainEmails(db, accountId, domainId));
}

/**
 * GET user/domains/emails: every address of the account on a domain, own or public, oldest first (settings/access
 * and the addresses on public domains read them all at once instead of domain by domain).
 */
export async function allDomainEmailsOf(db: Db, accountId: number): Promise<DomainEmail[]> {
  return toDomainEmails(db, await listDomainEmails(db, accountId));
}

/** One address as the screen shows it; entity_not_found when it is not the account's (or is deleted). */
export async function domainEmailOf(
  db: Db,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<DomainEmail> {
  await requireDomain(db, accountId, domainId);
  const row = (await listDomainEmails(db, accountId, domainId)).find((r) => r.id === emailId);
  if (!row) throw new DomainError('entity_not_found');
  const [email] = await toDomainEmails(db, [row]);
  return email!;
}

/**
 * POST user/domains/{id}/emails: the local part by the alias rules (the stop list on public domains only), on the
 * account's verified domain
 * (domain_not_verified otherwise) or a public one; taken on that domain: duplicate_aliases. Free on an own domain
 * within FREE_DOMAIN_EMAILS (prepared), else unpaid with an invoice issued at the wallet outside the transaction (a
 * wallet out of reach lets the name go at once). catch_all (own domains only) makes it the domain's catch-all.
 */
export async function createDomainEmail(
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
      await setCatchAll(trx, domainId, row.id);
    }
    return { row, paid };
  });
  if (created.paid) {
    const { row } = created;
    try {
      const account = await requireAccount(deps.db, accountId);
      const invoice = await createInvoice(deps, {
        accountId,
        memberId: account.member_id,
        purpose: DOMAIN_EMAIL_INVOICE_PURPOSE,
        subjectId: row.id,
        amount: deps.domainEmailPrice.toFixed(2),
        currency: WALLET_CURRENCY,
        description: `Mailroom address ${row.email}`,
      });
      await transact(deps.db, (trx) => setAliasInvoice(trx, row.id, invoice.id));
    } catch (err) {
      await transact(deps.db, (trx) => markAliasDeleted(trx, row.id));
      throw err;
    }
  }
  return domainEmailOf(deps.db, accountId, domainId, created.row.id);
}

/**
 * POST user/domains/emails/{email_id}/confirm: a prepared address on an own domain receives once the domain's MX
 * includes MX_HOST (invalid_domain_for_mail_server otherwise; a resolver failing: confirmation_error). An address
 * already active answers as it is; one unpaid or being paid: error_domain_status_paying.
 */
export async function confirmDomainEmail(
  deps: DomainEmailDeps,
  accountId: number,
  emailId: number,
): Promise<DomainEmail> {
  const row = await transact(deps.db, (trx) => lockDomainEmail(trx, accountId, undefined, emailId));
  if (!row) throw new DomainError('entity_not_found');
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
  return domainEmailOf(deps.db, accountId, row.domain_id, emailId);
}

/** PUT user/domains/{id}/emails/{email_id} {catch_all}: makes it (or stops it being) the domain's catch-all. */
export async function updateDomainEmail(
  db: Db,
  accountId: number,
  domainId: number,
  emailId: number,
  catchAll: boolean,
): Promise<DomainEmail> {
  await transact(db, async (trx) => {
    const row = await lockDomainEmail(trx, accountId, domainId, emailId);
    if (!row) throw new DomainError('entity_not_found');
    const domain = await lockDomain(trx, domainId);
    if (!domain || domain.account_id !== accountId) throw new DomainError('forbidden');
    if (catchAll) await setCatchAll(trx, domainId, emailId);
    else if (domain.catch_all_alias_id === emailId) await setCatchAll(trx, domainId, null);
  });
  return domainEmailOf(db, accountId, domainId, emailId);
}

/**
 * DELETE user/domains/{id}/emails/{email_id}: the address refuses mail from now on (RCPT 550), its mail stays, its
 * catch-all role, password access and delegation end. An unpaid one's invoice is cancelled first (paid meanwhile:
 * alias_cant_delete, so no payment is thrown away unseen); one being paid: error_domain_status_paying. Answers the
 * address and its delegate, whose sessions the caller ends.
 */
export async function deleteDomainEmail(
  deps: WalletDeps,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<{ email: string; delegateAccountId: number | undefined }> {
  const found = await transact(deps.db, (trx) => lockDomainEmail(trx, accountId, domainId, emailId));
  if (!found) throw new DomainError('entity_not_found');
  if (found.status === 'paying') throw new DomainError('error_domain_status_paying');
  const issued = found.status === 'unpaid' ? await invoiceOf(deps.db, found) : undefined;
  if (issued) {
    const { invoice } = await cancelInvoice(deps, issued.id);
    if (invoice.status === 'paid')
      throw new DomainError('alias_cant_delete', 'The address has been paid for meanwhile');
  }
  return transact(deps.db, async (trx) => {
    const row = await lockDomainEmail(trx, accountId, domainId, emailId);
    if (!row) throw new DomainError('entity_not_found');
    if (row.status === 'paying') throw new DomainError('error_domain_status_paying');
    const domain = await lockDomain(trx, domainId);
    if (domain?.catch_all_alias_id === row.id) await setCatchAll(trx, domainId, null);
    await markAliasDeleted(trx, row.id);
    await deletePasswordAccess(trx, accountId, row.email);
    const delegateAccountId = await deleteDelegation(trx, row.id);
    return { email: row.email, delegateAccountId };
  });
}

/**
 * POST user/domains/{id}/emails/{email_id}/paid ('I have already paid'): the wallet asked and its answer settled (the
 * purpose's handler changes the address). Still unpaid: pay_invoice; rejected or expired: pay_invoice_cancel.
 */
export async function checkDomainEmailPayment(
  deps: WalletDeps,
  accountId: number,
  domainId: number,
  emailId: number,
): Promise<DomainEmail> {
  const row = await transact(deps.db, (trx) => lockDomainEmail(trx, accountId, domainId, emailId));
  if (!row) throw new DomainError('entity_not_found');
  const issued = await invoiceOf(deps.db, row);
  if (!issued) throw new DomainError('pay_invoice');
  const { invoice } = await checkInvoice(deps, issued.id);
  if (invoice.status === 'unpaid') throw new DomainError('pay_invoice');
  if (invoice.status !== 'paid') throw new DomainError('pay_invoice_cancel');
  return domainEmailOf(deps.db, accountId, domainId, emailId);
}

/**
 * PUT user/domains/{id}/emails/{email_id}/access: sets (twice, equal) or removes password access to the address,
 * scrypt-hashed, at most ALIAS_ACCESS_CHANGES_PER_HOUR changes an hour (alias_access_changes, shared with aliases).
 * The caller ends the sessions signed in with the old password.
 */
export async function changeDomainEmailAccess(
  db: Db,
  accountId: number,
  domainId: number,
  emailId: number,
  update: DomainEmailAccess,
  now = new Date(),
): Promise<DomainEmail> {
  if (update.password !== null && update.password !== update.password_confirm)
    throw new DomainError('passwords_do_not_match');
  // scrypt takes a while and much memory: never while holding the row.
  const passwordHash = update.password === null ? null : await hashPassword(update.password);
  await transact(db, async (trx) => {
    const row = await lockDomainEmail(trx, accountId, domainId, emailId);
    if (!row) throw new DomainError('entity_not_found');
    const recent = await countAccessChanges(trx, row.id, new Date(now.getTime() - ACCESS_WINDOW_MS));
    if (recent >= ALIAS_ACCESS_CHANGES_PER_HOUR) throw new DomainError('alias_access_limit');
    if (passwordHash === null) await deletePasswordAccess(trx, accountId, row.email);
    else await upsertPasswordAccess(trx, { email: row.email, accountId, passwordHash });
    await recordAccessChange(trx, row.id, now);
  });
  return domainEmailOf(db, accountId, domainId, emailId);
}

/**
 * PATCH user/domains/{id}/emails/{email_id} {member_id}: sets or replaces the delegate (a member with an account, else
 * invalid_member_id2; oneself: delegate_self); null removes it. Answers the address, its address text and the delegates
 * before and after, whose sessions and tabs the caller looks after.
 */
export async function setDomainEmailDelegate(
  db: Db,
  accountId: number,
  domainId: number,
  emailId: number,
  memberId: string | null,
): Promise<{
  email: DomainEmail;
  address: string;
  previous: number | undefined;
  current: number | undefined;
}> {
  const delegate = memberId === null ? undefined : await findAccountByMemberId(db, memberId);
  const changed = await transact(db, async (trx) => {
    const row = await lockDomainEmail(trx, accountId, domainId, emailId);
    // Whose the address is comes first: another account's id tells nothing about members.
    if (!row) throw new DomainError('entity_not_found');
    if (memberId !== null && !delegate) throw new DomainError('invalid_member_id2');
    if (delegate?.id === accountId) throw new DomainError('delegate_self');
    const previous = await deleteDelegation(trx, row.id);
    if (delegate) await insertDelegation(trx, row.id, delegate.id);
    return { address: row.email, previous, current: delegate?.id };
  });
  return { ...changed, email: await domainEmailOf(db, accountId, domainId, emailId) };
}

/** GET user/delegated-emails (settings/d_emails): the active addresses other members delegated to this one. */
export async function delegatedEmailsOf(db: Db, accountId: number): Promise<DelegatedEmailsResponse> {
  const rows = await listDelegatedTo(db, accountId);
  return {
    emails: rows.map((r) => ({
      email: r.email,
      owner: { member_id: r.owner_member_id, name: r.owner_name },
      since: new Date(r.created_at).toISOString(),
    })),
  };
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

/**
 * The active address delegated to the member, locked in `trx` (a revocation waits for the session being opened under
 * it, then ends that too); undefined when it is not delegated to them.
 */
export function lockDelegatedAddress(
  trx: Trx,
  delegateAccountId: number,
  email: string,
): Promise<{ id: number; account_id: number; email: string } | undefined> {
  return findDelegatedAddress(trx, delegateAccountId, email, undefined, true);
}

/** The account holding the active address (for the auth log of a refused delegated opening). */
export async function activeAddressOwner(db: Db, email: string): Promise<number | undefined> {
  return (await findActiveAddressOwner(db, email))?.account_id;
}
