import { describe, expect, it } from 'vitest';
import { cleanup, createTestApp, createTestDb } from '../_util.js';
import { ensureAccount } from '../../src/accounts/index.js';
import {
  checkInvoice,
  createInvoice,
  HttpWalletGateway,
  invoiceLedger,
  InvoicePurposes,
  startSandboxWalletServer,
  type InvoiceRow,
  type WalletDeps,
} from '../../src/wallet/index.js';
import { apiPath } from '../_client.js';

const WEBHOOK_SECRET = 'a-webhook-secret-of-the-test';
const paidCalls: number[] = [];
const failedCalls: number[] = [];
const purposes = new InvoicePurposes().register('thing', {
  async onPaid(_trx, invoice: InvoiceRow) {
    paidCalls.push(invoice.id);
  },
  async onFailed(_trx, invoice: InvoiceRow) {
    failedCalls.push(invoice.id);
  },
});

const db = await createTestDb();
const sandbox = await startSandboxWalletServer({ db, host: '127.0.0.2', webhookSecret: WEBHOOK_SECRET });
cleanup(() => sandbox.close());
const wallet = new HttpWalletGateway({ apiUrl: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 2000 });
const server = await createTestApp({
  db,
  wallet,
  invoicePurposes: purposes,
  env: { WALLET_WEBHOOK_SECRET: WEBHOOK_SECRET },
});
const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
sandbox.webhookUrl = `${address}${apiPath('walletWebhook')}`;
const deps: WalletDeps = { db, wallet, invoicePurposes: purposes };

let nextMember = 200_000_000_000;
let nextSubject = 1;
async function issue() {
  const memberId = String(nextMember++);
  const { account } = await ensureAccount(db, { memberId, name: 'Ann Lee', mailDomain: 'mailroom.test' });
  return createInvoice(deps, {
    accountId: account.id,
    memberId,
    purpose: 'thing',
    subjectId: nextSubject++,
    amount: '1.00',
    currency: 'USD',
    description: 'A test thing',
  });
}

describe('the HTTP wallet client against the sandbox wallet server', () => {
  it('issues an invoice, and the signed webhook of its payment settles ours', async () => {
    const invoice = await issue();
    expect(invoice).toMatchObject({ status: 'unpaid', amount: '1.00', currency: 'USD' });
    expect(invoice.pay_url).toBe(`${sandbox.url}/v1/invoices/${invoice.wallet_invoice_id}`);
    await sandbox.pay(invoice.wallet_invoice_id);
    const ledger = await invoiceLedger(db, invoice.id);
    expect(ledger.map((r) => [r.to_status, r.source])).toEqual([['paid', 'webhook']]);
    expect(ledger[0]!.event_id).toBe(sandbox.events.at(-1)!.event_id);
    expect(paidCalls).toContain(invoice.id);
  });

  it('webhooks twice and out of order settle each invoice once', async () => {
    const a = await issue();
    const b = await issue();
    sandbox.holdWebhooks = true;
    try {
      await sandbox.pay(a.wallet_invoice_id);
      await sandbox.reject(b.wallet_invoice_id);
      const [paidA, rejectedB] = sandbox.held.splice(0);
      // A stale notice, as if the invoice's creation were reported late.
      const staleA = { ...paidA!, event_id: 'evt_stale_a', status: 'unpaid' as const };
      for (const event of [rejectedB!, paidA!, staleA, paidA!, rejectedB!, paidA!]) {
        expect(await sandbox.deliver(event)).toBe(200);
      }
    } finally {
      sandbox.holdWebhooks = false;
    }
    expect((await invoiceLedger(db, a.id)).map((r) => r.to_status)).toEqual(['paid']);
    expect((await invoiceLedger(db, b.id)).map((r) => r.to_status)).toEqual(['rejected']);
    expect(paidCalls.filter((id) => id === a.id)).toHaveLength(1);
    expect(failedCalls.filter((id) => id === b.id)).toHaveLength(1);
  });

  it('refuses a webhook with a wrong signature or an old timestamp, and changes nothing', async () => {
    const invoice = await issue();
    sandbox.holdWebhooks = true;
    try {
      await sandbox.pay(invoice.wallet_invoice_id);
    } finally {
      sandbox.holdWebhooks = false;
    }
    const event = sandbox.held.splice(0)[0]!;
    expect(await sandbox.deliver(event, Math.floor(Date.now() / 1000) - 301)).toBe(403);
    const forged = await fetch(sandbox.webhookUrl!, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-wallet-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: JSON.stringify(event),
    });
    expect(forged.status).toBe(403);
    const unsigned = await fetch(sandbox.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(403);
    expect(await invoiceLedger(db, invoice.id)).toEqual([]);
    expect(await sandbox.deliver(event)).toBe(200);
    expect((await invoiceLedger(db, invoice.id)).map((r) => r.to_status)).toEqual(['paid']);
  });

  it('answers 200 to a notice of an invoice that is not ours, and ignores it', async () => {
    const status = await sandbox.deliver({
      event_id: 'evt_foreign',
      invoice_id: 'sbx_not_ours',
      status: 'paid',
      at: new Date().toISOString(),
    });
    expect(status).toBe(200);
  });

  it('a wallet slower than the timeout is unavailable; the retry gets the same invoice', async () => {
    const memberId = String(nextMember++);
    const { account } = await ensureAccount(db, { memberId, name: 'Bo Chen', mailDomain: 'mailroom.test' });
    const input = {
      accountId: account.id,
      memberId,
      purpose: 'thing',
      subjectId: nextSubject++,
      amount: '1.00',
      currency: 'USD',
      description: 'Slow',
    };
    sandbox.delayMs = 2500;
    try {
      await expect(createInvoice(deps, input)).rejects.toMatchObject({ code: 'wallet_unavailable' });
    } finally {
      sandbox.delayMs = 0;
    }
    // The wallet may have issued it after we gave up: the retry, under the same key, answers that one.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const invoice = await createInvoice(deps, input);
    const atWallet = await db
      .selectFrom('sandbox_wallet_invoices')
      .select('id')
      .where('member_id', '=', memberId)
      .execute();
    expect(atWallet.map((r) => r.id)).toEqual([invoice.wallet_invoice_id]);
  });

  it('a 5xx is unavailable and changes nothing; the next check settles', async () => {
    // Paid at the wallet, its webhook lost.
    const other = await issue();
    sandbox.holdWebhooks = true;
    try {
      await sandbox.pay(other.wallet_invoice_id);
    } finally {
      sandbox.holdWebhooks = false;
      sandbox.held.splice(0);
    }
    sandbox.failNext(1, 502);
    await expect(checkInvoice(deps, other.id)).rejects.toMatchObject({ code: 'wallet_unavailable' });
    expect(await invoiceLedger(db, other.id)).toEqual([]);
    expect(await checkInvoice(deps, other.id)).toMatchObject({ changed: true, invoice: { status: 'paid' } });
    sandbox.failNext(1, 500);
    await expect(wallet.bankAccounts('123456789012')).rejects.toMatchObject({ code: 'wallet_unavailable' });
  });

  it('a wrong API key, an unknown invoice, notices and bank accounts', async () => {
    const wrongKey = new HttpWalletGateway({ apiUrl: sandbox.url, apiKey: 'wrong' });
    await expect(wrongKey.getInvoice('sbx_x')).rejects.toMatchObject({ code: 'wallet_unavailable' });
    await expect(wallet.getInvoice('sbx_nothing')).rejects.toMatchObject({ code: 'not_found' });
    await wallet.notify('123456789012', { kind: 'code', title: 'Code', text: 'Your code is 654321' });
    const notices = await db
      .selectFrom('sandbox_wallet_notices')
      .select('text')
      .where('member_id', '=', '123456789012')
      .execute();
    expect(notices.map((n) => n.text)).toContain('Your code is 654321');
    const accounts = await wallet.bankAccounts('123456789012');
    expect(accounts.length).toBeGreaterThan(0);
    expect(accounts[0]).toMatchObject({ id: expect.any(String), number: expect.stringMatching(/\d{4}$/) });
  });

  it('nothing answers at all: unavailable', async () => {
    const closed = await startSandboxWalletServer({ db, host: '127.0.0.3', webhookSecret: WEBHOOK_SECRET });
    const url = closed.url;
    await closed.close();
    const gone = new HttpWalletGateway({ apiUrl: url, apiKey: closed.apiKey });
    await expect(gone.getInvoice('sbx_x')).rejects.toMatchObject({ code: 'wallet_unavailable' });
  });
});
