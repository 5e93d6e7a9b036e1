import { z } from 'zod';
import { DomainError } from '../core/errors.js';
import type {
  CreateInvoiceInput,
  WalletBankAccount,
  WalletGateway,
  WalletInvoice,
  WalletNotice,
} from './gateway.js';

/** The provider's invoice as its API answers it (README, "The wallet": the API we expect). */
const invoiceSchema = z.object({
  id: z.string().min(1).max(200),
  status: z.enum(['unpaid', 'paid', 'rejected', 'expired', 'cancelled', 'refunded']),
  amount: z.string().regex(/^\d{1,12}(\.\d{1,8})?$/),
  currency: z.string().min(1).max(16),
  pay_url: z.string().max(2000),
});
const bankAccountsSchema = z.object({
  bank_accounts: z.array(
    z.object({ id: z.string(), name: z.string(), number: z.string(), currency: z.string() }),
  ),
});

/** Time the wallet has to answer one request. */
export const WALLET_TIMEOUT_MS = 5_000;

/**
 * The provider's wallet API over HTTPS (WALLET_API_URL, WALLET_API_KEY as a bearer key). Every failure to get an
 * answer — a network error, no answer within the timeout, a 5xx — is `wallet_unavailable`, and nothing of ours
 * changes then: the caller may try again, safely, since an invoice is created under its idempotency key (the wallet
 * answers the same invoice to the same key) and the other calls read or are idempotent. An unknown invoice is
 * `not_found`. No retry inside: a member waits at most one timeout, and the reconciliation job asks again later.
 */
export class HttpWalletGateway implements WalletGateway {
  readonly kind = 'http' as const;

  constructor(private readonly options: { apiUrl: string; apiKey: string; timeoutMs?: number }) {}

  async createInvoice(input: CreateInvoiceInput): Promise<WalletInvoice> {
    const body = {
      member_id: input.memberId,
      amount: input.amount,
      currency: input.currency,
      description: input.description,
    };
    return toInvoice(
      await this.call('POST', '/v1/invoices', body, { 'idempotency-key': input.idempotencyKey }),
    );
  }

  async getInvoice(id: string): Promise<WalletInvoice> {
    return toInvoice(await this.call('GET', `/v1/invoices/${encodeURIComponent(id)}`));
  }

  async cancelInvoice(id: string): Promise<WalletInvoice> {
    return toInvoice(await this.call('POST', `/v1/invoices/${encodeURIComponent(id)}/cancel`, {}));
  }

  async refundInvoice(id: string): Promise<WalletInvoice> {
    return toInvoice(await this.call('POST', `/v1/invoices/${encodeURIComponent(id)}/refund`, {}));
  }

  async notify(memberId: string, notice: WalletNotice): Promise<void> {
    await this.call('POST', `/v1/members/${encodeURIComponent(memberId)}/notifications`, notice);
  }

  async bankAccounts(memberId: string): Promise<WalletBankAccount[]> {
    const answer = await this.call('GET', `/v1/members/${encodeURIComponent(memberId)}/bank-accounts`);
    const parsed = bankAccountsSchema.safeParse(answer);
    if (!parsed.success)
      throw new DomainError('wallet_unavailable', 'The wallet answered something unexpected');
    return parsed.data.bank_accounts;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<unknown> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.options.apiUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.options.apiKey}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        redirect: 'error',
        signal: AbortSignal.timeout(this.options.timeoutMs ?? WALLET_TIMEOUT_MS),
      });
      // The body is read under the same timeout: a wallet that stalls mid-answer is unavailable too.
      text = await response.text();
    } catch {
      throw new DomainError('wallet_unavailable');
    }
    if (response.status === 404) throw new DomainError('not_found', 'The wallet has no such invoice');
    // 5xx, and any other refusal: our request is as the API wants it, so a refusal is the wallet's trouble (a 401
    // is a wrong WALLET_API_KEY) — unavailable for the member, and the reconciliation job asks again later.
    if (!response.ok) throw new DomainError('wallet_unavailable', `The wallet answered ${response.status}`);
    if (text === '') return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new DomainError('wallet_unavailable', 'The wallet answered something unexpected');
    }
  }
}

function toInvoice(answer: unknown): WalletInvoice {
  const parsed = invoiceSchema.safeParse(answer);
  if (!parsed.success)
    throw new DomainError('wallet_unavailable', 'The wallet answered something unexpected');
  const { id, status, amount, currency, pay_url } = parsed.data;
  return { id, status, amount, currency, payUrl: pay_url };
}
