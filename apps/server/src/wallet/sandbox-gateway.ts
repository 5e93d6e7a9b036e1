import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import type {
  CreateInvoiceInput,
  WalletBankAccount,
  WalletGateway,
  WalletInvoice,
  WalletNotice,
} from './gateway.js';
import {
  findSandboxInvoice,
  insertSandboxInvoice,
  insertSandboxNotice,
  refundSandboxInvoice,
  settleSandboxInvoice,
  type SandboxInvoiceRow,
} from './sandbox.repository.js';

/** Where the sandbox wallet's page lives (served only while the sandbox is the wallet). */
export const SANDBOX_WALLET_PATH = '/sandbox/wallet';

/** A fresh id for a sandbox invoice: opaque, unguessable, like a real wallet's. */
export function newSandboxInvoiceId(): string {
  return `sbx_${randomBytes(12).toString('hex')}`;
}

/** The link where the member pays a sandbox invoice: the sandbox page, the invoice picked. */
export function sandboxPayUrl(baseUrl: string, invoiceId: string): string {
  return `${baseUrl}${SANDBOX_WALLET_PATH}?invoice=${encodeURIComponent(invoiceId)}`;
}

export function sandboxInvoiceView(row: SandboxInvoiceRow, baseUrl: string): WalletInvoice {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    payUrl: sandboxPayUrl(baseUrl, row.id),
  };
}

/**
 * The member's bank accounts as the sandbox reports them. The sandbox has no bank behind it and nothing ever opens an
 * account in it, so they are derived from the member ID alone (a hash of it): every member has the same three accounts
 * on every start, in every process and in the HTTP sandbox server alike, with no table to seed or keep in step, and a
 * test or a screenshot can name them.
 */
export function sandboxBankAccounts(memberId: string): WalletBankAccount[] {
  const digest = createHash('sha256').update(`sandbox-bank-accounts:${memberId}`).digest();
  const kinds = [
    { name: 'Current account', currency: 'USD' },
    { name: 'Savings account', currency: 'USD' },
    { name: 'Card account', currency: 'EUR' },
  ];
  return kinds.map((kind, i) => {
    const last4 = String(digest.readUInt16BE(i * 2) % 10_000).padStart(4, '0');
    return {
      id: `ba_${digest.subarray(8 + i * 4, 12 + i * 4).toString('hex')}`,
      name: kind.name,
      number: `•••• ${last4}`,
      currency: kind.currency,
    };
  });
}

/**
 * The embedded sandbox wallet (the default, when WALLET_API_URL is unset): the wallet's own state in our database
 * (tables `sandbox_wallet_invoices`, `sandbox_wallet_notices`), invoices paid or rejected on /sandbox/wallet or with
 * `mailroom wallet pay|reject`. It never fails as a network would; the HTTP sandbox server (sandbox-server.ts) is the
 * one that can be made slow or broken.
 */
export class SandboxWalletGateway implements WalletGateway {
  readonly kind = 'sandbox' as const;

  constructor(
    private readonly db: Db,
    /** The origin pay links point at (PUBLIC_URL). */
    private readonly baseUrl: string,
  ) {}

  async createInvoice(input: CreateInvoiceInput): Promise<WalletInvoice> {
    const row = await insertSandboxInvoice(this.db, {
      id: newSandboxInvoiceId(),
      member_id: input.memberId,
      amount: input.amount,
      currency: input.currency,
      description: input.description,
      idempotency_key: input.idempotencyKey,
    });
    return sandboxInvoiceView(row, this.baseUrl);
  }

  async getInvoice(id: string): Promise<WalletInvoice> {
    const row = await findSandboxInvoice(this.db, id);
    if (!row) throw new DomainError('not_found', 'The wallet has no such invoice');
    return sandboxInvoiceView(row, this.baseUrl);
  }

  async cancelInvoice(id: string): Promise<WalletInvoice> {
    const settled = await settleSandboxInvoice(this.db, id, 'cancelled');
    if (!settled) throw new DomainError('not_found', 'The wallet has no such invoice');
    return sandboxInvoiceView(settled.invoice, this.baseUrl);
  }

  async refundInvoice(id: string): Promise<WalletInvoice> {
    const row = await refundSandboxInvoice(this.db, id);
    if (!row) throw new DomainError('not_found', 'The wallet has no such invoice');
    return sandboxInvoiceView(row, this.baseUrl);
  }

  async notify(memberId: string, notice: WalletNotice): Promise<void> {
    await insertSandboxNotice(this.db, { member_id: memberId, ...notice });
  }

  async bankAccounts(memberId: string): Promise<WalletBankAccount[]> {
    return sandboxBankAccounts(memberId);
  }
}
