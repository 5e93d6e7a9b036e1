import type { InvoiceStatus } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { refundInvoice, settleInvoice, type WalletDeps } from './invoices.service.js';

/**
 * A verified status notice from the wallet, settled through settleInvoice (source 'webhook', its event id in the
 * ledger). Duplicates and notices that arrive out of order change nothing (settleInvoice). A notice of an invoice we
 * have no record of is answered as received and ignored: it is not ours (another deployment on the same wallet
 * account) or our record of it was never stored (creation failed after the wallet issued it) — a retry would not
 * change that, and the next createInvoice with the same key stores it, after which checks and the reconciliation job
 * read its status.
 */
export async function receiveWalletWebhook(
  deps: WalletDeps & { log?: { warn(obj: object, msg: string): void } },
  event: { event_id: string; invoice_id: string; status: InvoiceStatus },
): Promise<'settled' | 'unchanged' | 'unknown_invoice'> {
  try {
    const { changed, invoice } = await settleInvoice(deps, {
      walletInvoiceId: event.invoice_id,
      status: event.status,
      source: 'webhook',
      eventId: event.event_id,
    });
    // A late payment that cannot be delivered is paid back at once; if the wallet cannot be reached now, the
    // reconciliation job asks again (the invoice stays refund_due).
    if (changed && invoice.status === 'refund_due')
      await refundInvoice(deps, invoice.id).catch((err: unknown) => {
        if (!(err instanceof DomainError && err.code === 'wallet_unavailable')) throw err;
        deps.log?.warn({ err, invoice: invoice.id }, 'late payment: refund postponed');
      });
    return changed ? 'settled' : 'unchanged';
  } catch (err) {
    if (err instanceof DomainError && err.code === 'not_found') return 'unknown_invoice';
    throw err;
  }
}
