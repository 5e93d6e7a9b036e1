import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { findInvoice } from './invoices.repository.js';
import { settleInvoice, type WalletDeps } from './invoices.service.js';
import {
  sandboxInvoicesOf,
  sandboxNoticesOf,
  settleSandboxInvoice,
  type SandboxInvoiceRow,
  type SandboxNoticeRow,
} from './sandbox.repository.js';

/**
 * The member pays or rejects an invoice in the embedded sandbox wallet (its page, `mailroom wallet pay|reject`): the
 * wallet's invoice changes, and ours is settled through settleInvoice in the same transaction (source 'sandbox'), as
 * the provider's webhook would settle it. Paying twice, or paying a rejected invoice, changes nothing. `memberId`, when
 * given, must be the invoice's member (the page: one member cannot pay another's invoice).
 */
export async function settleInSandbox(
  deps: Pick<WalletDeps, 'db' | 'invoicePurposes'>,
  walletInvoiceId: string,
  status: 'paid' | 'rejected',
  memberId?: string,
): Promise<SandboxInvoiceRow> {
  return transact(deps.db, async (trx) => {
    const settled = await settleSandboxInvoice(trx, walletInvoiceId, status);
    if (!settled || (memberId !== undefined && settled.invoice.member_id !== memberId)) {
      throw new DomainError('not_found', 'The wallet has no such invoice');
    }
    const ours = await findInvoice(trx, { walletInvoiceId });
    if (ours && settled.invoice.status !== 'unpaid') {
      await settleInvoice(
        { ...deps, db: trx },
        { walletInvoiceId, status: settled.invoice.status, source: 'sandbox' },
      );
    }
    return settled.invoice;
  });
}

/** What the sandbox page shows a member: their invoices and the notices their wallet application received. */
export async function sandboxWalletOf(
  db: Db,
  memberId: string,
): Promise<{ invoices: SandboxInvoiceRow[]; notices: SandboxNoticeRow[] }> {
  const [invoices, notices] = await Promise.all([
    sandboxInvoicesOf(db, memberId),
    sandboxNoticesOf(db, memberId),
  ]);
  return { invoices, notices };
}
