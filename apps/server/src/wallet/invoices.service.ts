import type { Invoice } from '@mailroom/protocol';
import {
  transact,
  type Db,
  type InvoiceChangeSource,
  type InvoiceStatus,
  type Trx,
} from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import type { WalletGateway } from './gateway.js';
import {
  findInvoice,
  findInvoiceByKey,
  insertInvoice,
  ledgerHasEvent,
  lockInvoice,
  recordInvoiceChange,
  type InvoiceRef,
  type InvoiceRow,
} from './invoices.repository.js';

/**
 * What paying for a purpose does: called inside the transaction that settles the invoice, under its row lock, exactly
 * once per invoice — `onPaid` when it becomes paid, `onFailed` when it becomes rejected, expired or cancelled (the
 * invoice's status says which). A handler that throws rolls the change back (the reporter may report again).
 */
export interface InvoicePurposeHandler {
  onPaid(trx: Trx, invoice: InvoiceRow): Promise<void>;
  onFailed(trx: Trx, invoice: InvoiceRow): Promise<void>;
  /**
   * A payment reported after the invoice was settled as expired or cancelled (we gave it up): deliver what it paid
   * for if that still can be (the name still free, the row not deleted) and answer true; false when it cannot, and the
   * money is paid back. Without it every late payment is paid back.
   */
  onPaidLate?(trx: Trx, invoice: InvoiceRow): Promise<boolean>;
}

/**
 * Settled statuses a late 'paid' report can still reach: we gave the invoice up (expired, or withdrawn) while the
 * member could still pay it. A rejected invoice is the member's own refusal at the wallet: it stays rejected.
 */
const LATE_PAYABLE: ReadonlySet<InvoiceStatus> = new Set(['expired', 'cancelled']);

/**
 * The purposes invoices are issued for ('alias', 'domain', …) and their handlers: one registry per process, made at
 * start-up (app.ts `appInvoicePurposes`) and carried in the deps (`invoicePurposes`), so every path that settles an
 * invoice — the routes, the webhook, the jobs, the CLI — runs the same handlers.
 */
export class InvoicePurposes {
  private readonly handlers = new Map<string, InvoicePurposeHandler>();

  register(purpose: string, handler: InvoicePurposeHandler): this {
    if (this.handlers.has(purpose)) throw new Error(`invoice purpose ${purpose} is registered twice`);
    this.handlers.set(purpose, handler);
    return this;
  }

  handlerOf(purpose: string): InvoicePurposeHandler {
    const handler = this.handlers.get(purpose);
    // A purpose without a handler would take money and do nothing: refuse (the change rolls back).
    if (!handler) throw new Error(`no handler for invoice purpose ${purpose}`);
    return handler;
  }
}

/** `purposes.register(purpose, handler)`, as a function. */
export function registerInvoicePurpose(
  purposes: InvoicePurposes,
  purpose: string,
  handler: InvoicePurposeHandler,
): InvoicePurposes {
  return purposes.register(purpose, handler);
}

/** What the invoice functions need: the database, the wallet, the purposes' handlers (AppDeps has all three). */
export interface WalletDeps {
  db: Db;
  wallet: WalletGateway;
  invoicePurposes: InvoicePurposes;
}

export interface CreateInvoiceRequest {
  accountId: number;
  memberId: string;
  purpose: string;
  subjectId: number;
  /** Decimal string, e.g. '1.00'. */
  amount: string;
  currency: string;
  /** Shown to the member in the wallet application. */
  description: string;
}

/** The idempotency key of the invoice for a subject: the same purpose and subject always make the same invoice. */
export function invoiceIdempotencyKey(purpose: string, subjectId: number): string {
  return `mailroom:${purpose}:${subjectId}`;
}

/**
 * Issues the invoice for a purpose's subject at the wallet and records it. Safe to retry: the idempotency key comes
 * from the purpose and subject, so the wallet creates it once and we store it once (a retry after a timeout, or two
 * requests at once, answer the same invoice). Outside any transaction: it calls the wallet, which may be slow.
 * Throws DomainError('wallet_unavailable') when the wallet cannot be reached (nothing is stored then).
 */
export async function createInvoice(deps: WalletDeps, input: CreateInvoiceRequest): Promise<InvoiceRow> {
  deps.invoicePurposes.handlerOf(input.purpose);
  const idempotencyKey = invoiceIdempotencyKey(input.purpose, input.subjectId);
  const existing = await findInvoiceByKey(deps.db, idempotencyKey);
  if (existing) return existing;
  const issued = await deps.wallet.createInvoice({
    memberId: input.memberId,
    amount: input.amount,
    currency: input.currency,
    description: input.description,
    idempotencyKey,
  });
  return insertInvoice(deps.db, {
    account_id: input.accountId,
    purpose: input.purpose,
    subject_id: input.subjectId,
    wallet_invoice_id: issued.id,
    idempotency_key: idempotencyKey,
    amount: issued.amount,
    currency: issued.currency,
    pay_url: issued.payUrl,
  });
}

export type SettleRequest = InvoiceRef & {
  /** The status reported (by the wallet's answer, a webhook, the sandbox). */
  status: InvoiceStatus;
  source: InvoiceChangeSource;
  /** The webhook event that reports it. */
  eventId?: string | undefined;
};

export interface SettleResult {
  /** The invoice as it is now. */
  invoice: InvoiceRow;
  /** Whether this report changed it (false: a duplicate, stale or 'unpaid' report). */
  changed: boolean;
}

/**
 * THE one function that changes an invoice's state. In one transaction: the invoice row locked (FOR UPDATE), the
 * change allowed only from 'unpaid' (to paid, rejected, expired or cancelled), and for a late payment from expired or
 * cancelled (to paid when onPaidLate delivered it, else refund_due), and from refund_due to refunded (refundInvoice,
 * once the wallet paid it back) — nothing else,
 * one ledger row appended, and the purpose's handler called — so however many reports arrive, in whatever order, from
 * 'I have already paid', webhooks, the reconciliation job or the sandbox, an invoice is paid (and its alias activated)
 * once. A duplicate or stale report, or one that says 'unpaid', changes nothing and answers the invoice as it is. An
 * unknown invoice is `not_found`.
 */
export async function settleInvoice(
  deps: Pick<WalletDeps, 'db' | 'invoicePurposes'>,
  request: SettleRequest,
): Promise<SettleResult> {
  return transact(deps.db, async (trx) => {
    const invoice = await lockInvoice(trx, request);
    if (!invoice) throw new DomainError('not_found', 'No such invoice');
    const late = LATE_PAYABLE.has(invoice.status) && request.status === 'paid';
    const refunded = invoice.status === 'refund_due' && request.status === 'refunded';
    if ((invoice.status !== 'unpaid' && !late && !refunded) || request.status === 'unpaid')
      return { invoice, changed: false };
    // 'refunded' is recorded only from refund_due (refundInvoice), never for an unpaid invoice.
    if (request.status === 'refunded' && !refunded) return { invoice, changed: false };
    // The same webhook event again (it can only have changed this invoice, now settled): nothing to do.
    if (request.eventId && (await ledgerHasEvent(trx, request.eventId))) return { invoice, changed: false };
    if (refunded) {
      const settled = await recordInvoiceChange(trx, invoice, {
        status: 'refunded',
        source: request.source,
        eventId: null,
      });
      return { invoice: settled, changed: true };
    }
    if (late) {
      // Money taken for an invoice we gave up: what it paid for if it can still be had, else paid back
      // (refund_due: refundInvoice asks the wallet, now or from the reconciliation job, and records refunded).
      const handler = deps.invoicePurposes.handlerOf(invoice.purpose);
      const delivered = handler.onPaidLate ? await handler.onPaidLate(trx, invoice) : false;
      const settled = await recordInvoiceChange(trx, invoice, {
        status: delivered ? 'paid' : 'refund_due',
        source: request.source,
        eventId: request.eventId ?? null,
      });
      return { invoice: settled, changed: true };
    }
    const settled = await recordInvoiceChange(trx, invoice, {
      status: request.status,
      source: request.source,
      eventId: request.eventId ?? null,
    });
    const handler = deps.invoicePurposes.handlerOf(settled.purpose);
    if (settled.status === 'paid') await handler.onPaid(trx, settled);
    else await handler.onFailed(trx, settled);
    return { invoice: settled, changed: true };
  });
}

/**
 * Asks the wallet how the invoice stands and settles it so ('I have already paid', the reconciliation job). A settled
 * invoice is answered as it is without asking. Throws DomainError('wallet_unavailable') when the wallet cannot be
 * reached: nothing changes then.
 */
export async function checkInvoice(
  deps: WalletDeps,
  invoiceId: number,
  source: InvoiceChangeSource = 'check',
): Promise<SettleResult> {
  const invoice = await findInvoice(deps.db, { invoiceId });
  if (!invoice) throw new DomainError('not_found', 'No such invoice');
  if (invoice.status !== 'unpaid') return { invoice, changed: false };
  const reported = await deps.wallet.getInvoice(invoice.wallet_invoice_id);
  return settleInvoice(deps, { invoiceId, status: reported.status, source });
}

/**
 * Withdraws an unpaid invoice at the wallet and settles ours as the wallet answers: 'cancelled' as a rule, but 'paid'
 * when the member paid it meanwhile (then the purpose's onPaid runs, as for any payment). `status` is what to settle
 * with if the wallet reports cancelled: 'expired' for the reconciliation job's expiry.
 */
export async function cancelInvoice(
  deps: WalletDeps,
  invoiceId: number,
  options: { source?: InvoiceChangeSource; status?: 'cancelled' | 'expired' } = {},
): Promise<SettleResult> {
  const invoice = await findInvoice(deps.db, { invoiceId });
  if (!invoice) throw new DomainError('not_found', 'No such invoice');
  if (invoice.status !== 'unpaid') return { invoice, changed: false };
  const answer = await deps.wallet.cancelInvoice(invoice.wallet_invoice_id);
  const status = answer.status === 'cancelled' ? (options.status ?? 'cancelled') : answer.status;
  return settleInvoice(deps, { invoiceId, status, source: options.source ?? 'cancel' });
}

/**
 * Pays a late payment back (an invoice in refund_due): the wallet refunds it (idempotent there), then the invoice is
 * recorded refunded, once, under its lock. Throws wallet_unavailable when the wallet cannot be reached: it stays
 * refund_due and the reconciliation job asks again.
 */
export async function refundInvoice(deps: WalletDeps, invoiceId: number): Promise<SettleResult> {
  const invoice = await findInvoice(deps.db, { invoiceId });
  if (!invoice) throw new DomainError('not_found', 'No such invoice');
  if (invoice.status !== 'refund_due') return { invoice, changed: false };
  const answer = await deps.wallet.refundInvoice(invoice.wallet_invoice_id);
  if (answer.status !== 'refunded')
    throw new DomainError('wallet_unavailable', `The wallet did not refund the invoice (${answer.status})`);
  return settleInvoice(deps, { invoiceId, status: 'refunded', source: 'refund' });
}

/** The invoice as the API shows it (protocol `Invoice`): the wallet's id, the pay link while it is unpaid. */
export function invoiceView(row: InvoiceRow): Invoice {
  return {
    id: row.wallet_invoice_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status,
    pay_url: row.status === 'unpaid' ? row.pay_url : null,
    created_at: row.created_at.toISOString(),
  };
}
