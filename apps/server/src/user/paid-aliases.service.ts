import { PAID_ALIAS_PRICE, type PaidAlias, type PaidAliasesResponse } from '@mailroom/protocol';
import { transact, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import {
  cancelInvoice,
  invoiceView,
  type InvoicePurposeHandler,
  type InvoiceRow,
  type WalletDeps,
} from '../wallet/index.js';
import {
  deletePasswordAccess,
  listAccountAliases,
  lockAccountAlias,
  lockPaidAlias,
  markAliasDeleted,
  reviveFailedAlias,
  setAliasInvoice,
  setAliasStatus,
  type AliasRow,
} from '../addresses/index.js';
import { invoiceOfRow, issueInvoice, requirePaidInvoice } from './address-invoices.js';
import {
  aliasesChanged,
  aliasRemoved,
  insertCheckedAlias,
  requireAccountAlias,
  toAliasEntry,
  type AliasDeps,
} from './alias-rules.js';

/**
 * Paid aliases (SPEC §1: PAID_ALIAS_PRICE units each; §4: unpaid invoice → 'I have already paid' → payment checked).
 * Creating one holds the name (the alias row, status unpaid) and issues an invoice through the wallet. Its status then
 * changes only in the 'alias' purpose's handler, which settleInvoice calls exactly once per invoice, whatever reports
 * the payment (check_payment here, the wallet's webhook, the reconciliation job, the sandbox page): paid → succeed (it
 * receives mail from then on), rejected, expired or cancelled → failed (the name free again). A change of the alias by
 * its payment is told by that handler, after its commit, whichever path settled the invoice.
 */

/** The purpose paid aliases' invoices are issued for (invoices.purpose; subject_id is the alias's id). */
export const ALIAS_INVOICE_PURPOSE = 'alias';

/**
 * What settling a paid alias's invoice does, inside settleInvoice's transaction under the invoice's lock: the alias
 * activated or failed, and, once that transaction commits, the owner's tabs told (updateAccount aliases) whichever
 * path settled it.
 */
export function aliasInvoicePurpose(deps: { events: EventBus; log: PublishLog }): InvoicePurposeHandler {
  const settle = async (trx: Trx, invoice: InvoiceRow, status: 'succeed' | 'failed') => {
    // By the invoice's subject, not aliases.invoice_id: a payment may be reported before that link is written.
    const alias = await lockPaidAlias(trx, invoice.subject_id);
    // Only an alias still waiting for its payment changes (a given-up alias was failed by its cancelled invoice).
    if (!alias || (alias.status !== 'unpaid' && alias.status !== 'paying')) return;
    await setAliasStatus(trx, alias.id, status);
    await emit(trx, deps, alias.account_id, [{ event: 'updateAccount', part: 'aliases' }]);
  };
  return {
    onPaid: (trx, invoice) => settle(trx, invoice, 'succeed'),
    onFailed: (trx, invoice) => settle(trx, invoice, 'failed'),
    // Paid after the invoice was given up: the alias is the member's after all, if its name is still free.
    onPaidLate: async (trx, invoice) => {
      const accountId = await reviveFailedAlias(trx, invoice.subject_id);
      if (accountId === undefined) return false;
      await emit(trx, deps, accountId, [{ event: 'updateAccount', part: 'aliases' }]);
      return true;
    },
  };
}

const invoiceOf = (deps: WalletDeps, row: AliasRow) => invoiceOfRow(deps.db, ALIAS_INVOICE_PURPOSE, row);

/** The account's paid alias by id (not deleted), or alias_not_found (a free alias's id too). */
async function requirePaidAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<AliasRow> {
  const row = await requireAccountAlias(deps.db, accountId, aliasId);
  if (row.kind !== 'paid') throw new DomainError('alias_not_found');
  return row;
}

/** GET user/aliases/paid: the paid aliases that are not deleted, oldest first, each with its invoice. */
export async function listPaidAliases(deps: AliasDeps, accountId: number): Promise<PaidAliasesResponse> {
  const rows = await listAccountAliases(deps.db, accountId, 'paid');
  const withInvoices = await Promise.all(
    rows.map(async (row) => ({ row, invoice: await invoiceOf(deps, row) })),
  );
  return {
    paid_aliases: withInvoices.flatMap(({ row, invoice }) =>
      invoice ? [{ ...toAliasEntry(row, row.password_access), invoice: invoiceView(invoice) }] : [],
    ),
  };
}

/**
 * POST user/aliases/paid: the rules of every alias (one paid alias on its way at a time), the name held by an unpaid
 * alias, then the invoice issued at the wallet (outside the transaction: the wallet may be slow). When the wallet
 * cannot issue it, the hold is let go at once (no invoice, nothing to pay) and the error told.
 */
export async function buyAlias(deps: AliasDeps, accountId: number, name: string): Promise<PaidAlias> {
  const alias = await transact(deps.db, (trx) =>
    insertCheckedAlias(trx, deps.mailDomain, accountId, name, 'paid'),
  );
  const invoice = await issueInvoice(
    deps,
    {
      accountId,
      purpose: ALIAS_INVOICE_PURPOSE,
      subjectId: alias.id,
      price: PAID_ALIAS_PRICE,
      description: `Mailroom alias ${alias.email}`,
    },
    () => transact(deps.db, (trx) => markAliasDeleted(trx, alias.id)),
  );
  await transact(deps.db, (trx) => setAliasInvoice(trx, alias.id, invoice.id));
  await aliasesChanged(deps, accountId);
  return { ...toAliasEntry({ ...alias, invoice_id: invoice.id }, false), invoice: invoiceView(invoice) };
}

/**
 * POST user/aliases/paid/{id}/check_payment ('I have already paid'): the wallet asked how the invoice stands and the
 * answer settled (the purpose's handler changes the alias and tells of it). Paid: the active alias; still unpaid:
 * pay_invoice; rejected, expired or cancelled: pay_invoice_cancel (the alias failed, its name free again).
 */
export async function checkPayment(deps: AliasDeps, accountId: number, aliasId: number): Promise<PaidAlias> {
  const row = await requirePaidAlias(deps, accountId, aliasId);
  const invoice = await requirePaidInvoice(deps, await invoiceOf(deps, row));
  const entry = (await listAccountAliases(deps.db, accountId, 'paid')).find((r) => r.id === aliasId);
  if (!entry) throw new DomainError('alias_not_found');
  return { ...toAliasEntry(entry, entry.password_access), invoice: invoiceView(invoice) };
}

/**
 * DELETE user/aliases/paid/{id} (and DELETE user/aliases/{id} of a paid alias not active): an unpaid one is given up —
 * its invoice cancelled at the wallet (the handler fails the alias, freeing the name), then the alias deleted; a failed
 * one deleted; a succeeded one deleted like any active alias. Paid at the wallet meanwhile: the alias is active now and
 * stays (alias_cant_delete), so a payment is never thrown away unseen. Being paid: `paying`, the caller's code. Its
 * password sessions end; the screen is told.
 */
export async function removePaidAlias(
  deps: AliasDeps,
  accountId: number,
  row: AliasRow,
  paying: 'alias_cant_delete' | 'error_alias_status_paying',
): Promise<void> {
  if (row.status === 'paying') throw new DomainError(paying);
  const issued = row.status === 'unpaid' ? await invoiceOf(deps, row) : undefined;
  if (issued) {
    const { invoice } = await cancelInvoice(deps, issued.id);
    if (invoice.status === 'paid')
      throw new DomainError('alias_cant_delete', 'The alias has been paid for meanwhile');
  }
  const email = await transact(deps.db, async (trx) => {
    const locked = await lockAccountAlias(trx, accountId, row.id);
    if (!locked) throw new DomainError('alias_not_found');
    if (locked.status === 'paying') throw new DomainError(paying);
    // Still unpaid here: its invoice was never issued (the issuing failed or crashed), so there is nothing to pay.
    // An invoice issued meanwhile (a create still running) would be left to pay for nothing: refuse until it settles.
    if (locked.status === 'unpaid') {
      const invoice = await invoiceOfRow(trx, ALIAS_INVOICE_PURPOSE, locked);
      if (invoice?.status === 'unpaid') throw new DomainError('alias_cant_delete');
    }
    await markAliasDeleted(trx, locked.id);
    await deletePasswordAccess(trx, accountId, locked.email);
    return locked.email;
  });
  await aliasRemoved(deps, accountId, email);
}

/** DELETE user/aliases/paid/{id}: another account's id, or a free alias's, is alias_not_found. */
export async function giveUpPaidAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<void> {
  const row = await requirePaidAlias(deps, accountId, aliasId);
  await removePaidAlias(deps, accountId, row, 'error_alias_status_paying');
}
