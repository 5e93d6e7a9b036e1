/**
 * The provider's wallet, as Mailroom needs it (issue 16): invoices for paid aliases and domains, notices to the
 * member's wallet application (new mail, confirmation codes), and the member's bank accounts. Two implementations,
 * chosen by configuration: `HttpWalletGateway` (WALLET_API_URL, the provider's API) and the embedded sandbox wallet
 * (the default: invoices in our database, paid or rejected on /sandbox/wallet or with `mailroom wallet pay|reject`).
 *
 * Every method may throw `DomainError('wallet_unavailable')` when the wallet cannot be reached or answers 5xx; callers
 * never change money state on such an error (the reconciliation job asks again later).
 */

/** The wallet's view of an invoice. */
export type WalletInvoiceStatus = 'unpaid' | 'paid' | 'rejected' | 'expired' | 'cancelled' | 'refunded';

export interface WalletInvoice {
  /** The wallet's id of the invoice. */
  id: string;
  status: WalletInvoiceStatus;
  /** Decimal string, e.g. '1.00'. */
  amount: string;
  currency: string;
  /** Where the member pays it (the wallet application's link). */
  payUrl: string;
}

export interface CreateInvoiceInput {
  memberId: string;
  amount: string;
  currency: string;
  /** Shown to the member in the wallet application. */
  description: string;
  /** The same key creates the same invoice once, however often it is retried. */
  idempotencyKey: string;
}

/** A notice to the member's wallet application. */
export interface WalletNotice {
  kind: 'new_mail' | 'code' | 'security';
  title: string;
  text: string;
}

export interface WalletBankAccount {
  id: string;
  name: string;
  /** Masked to its last 4 digits. */
  number: string;
  currency: string;
}

export interface WalletGateway {
  /** Which implementation this is (the README's settings, the sandbox page is served only for 'sandbox'). */
  readonly kind: 'sandbox' | 'http';
  createInvoice(input: CreateInvoiceInput): Promise<WalletInvoice>;
  getInvoice(id: string): Promise<WalletInvoice>;
  /** Withdraws an unpaid invoice; a paid one stays paid (the answer says which). */
  cancelInvoice(id: string): Promise<WalletInvoice>;
  /**
   * Pays a paid invoice's money back to the member (a late payment for what could no longer be had). Idempotent: a
   * refunded invoice answers refunded again, never a second refund.
   */
  refundInvoice(id: string): Promise<WalletInvoice>;
  notify(memberId: string, notice: WalletNotice): Promise<void>;
  bankAccounts(memberId: string): Promise<WalletBankAccount[]>;
}
