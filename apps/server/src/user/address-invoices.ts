import { DomainError } from '../core/errors.js';
import type { Db } from '../core/db/index.js';
import { requireAccount } from '../accounts/index.js';
import {
  checkInvoice,
  createInvoice,
  findInvoice,
  invoicesForSubject,
  type InvoiceRow,
  type WalletDeps,
} from '../wallet/index.js';

/**
 * What paid aliases, paid domains and paid addresses on domains share with the wallet: the invoice of a row, issuing
 * one for it, and 'I have already paid'.
 */

/** The provider's dollar-pegged currency, as the wallet names it. */
export const WALLET_CURRENCY = 'USD';

/**
 * The row's invoice: its invoice_id, or, in the moment between issuing it and writing that link (or after a crash
 * there), the newest invoice issued for the row as its subject. Undefined only while it is being issued.
 */
export async function invoiceOfRow(
  db: Db,
  purpose: string,
  row: { id: number; invoice_id: number | null },
): Promise<InvoiceRow | undefined> {
  if (row.invoice_id !== null) return findInvoice(db, { invoiceId: row.invoice_id });
  return (await invoicesForSubject(db, purpose, row.id)).at(-1);
}

/**
 * Issues the invoice for what the member buys at the wallet (outside any transaction: the wallet may be slow). When
 * the wallet cannot issue it, `release` lets the hold on what was bought go at once (no invoice, nothing to pay) and
 * the error is told.
 */
export async function issueInvoice(
  deps: WalletDeps,
  input: { accountId: number; purpose: string; subjectId: number; price: number; description: string },
  release: () => Promise<unknown>,
): Promise<InvoiceRow> {
  try {
    const account = await requireAccount(deps.db, input.accountId);
    return await createInvoice(deps, {
      accountId: input.accountId,
      memberId: account.member_id,
      purpose: input.purpose,
      subjectId: input.subjectId,
      amount: input.price.toFixed(2),
      currency: WALLET_CURRENCY,
      description: input.description,
    });
  } catch (err) {
    await release();
    throw err;
  }
}

/**
 * 'I have already paid': the wallet asked how the invoice stands and the answer settled (the purpose's handler changes
 * what was bought). Paid: the invoice; none issued yet or still unpaid: pay_invoice; rejected, expired or cancelled:
 * pay_invoice_cancel.
 */
export async function requirePaidInvoice(
  deps: WalletDeps,
  issued: InvoiceRow | undefined,
): Promise<InvoiceRow> {
  if (!issued) throw new DomainError('pay_invoice');
  const { invoice } = await checkInvoice(deps, issued.id);
  if (invoice.status === 'unpaid') throw new DomainError('pay_invoice');
  if (invoice.status !== 'paid') throw new DomainError('pay_invoice_cancel');
  return invoice;
}
