import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb } from '../_util.js';
import { ensureAccount } from '../../src/accounts/index.js';
import type { Db, Trx } from '../../src/core/db/index.js';
import {
  checkInvoice,
  createInvoice,
  invoiceLedger,
  InvoicePurposes,
  invoiceView,
  sandboxBankAccounts,
  SandboxWalletGateway,
  settleInSandbox,
  settleInvoice,
  type InvoiceRow,
  type WalletDeps,
} from '../../src/wallet/index.js';

const db = await createTestDb();

/** A purpose of the test's own that records what settling did, in the settling transaction. */
function recordingPurposes() {
  const calls: { kind: 'paid' | 'failed'; invoiceId: number; status: string }[] = [];
  const purposes = new InvoicePurposes().register('thing', {
    async onPaid(_trx: Trx, invoice: InvoiceRow) {
      calls.push({ kind: 'paid', invoiceId: invoice.id, status: invoice.status });
    },
    async onFailed(_trx: Trx, invoice: InvoiceRow) {
      calls.push({ kind: 'failed', invoiceId: invoice.id, status: invoice.status });
    },
  });
  return { purposes, calls };
}

let nextMember = 100_000_000_000;
async function member(on: Db = db) {
  const memberId = String(nextMember++);
  const { account } = await ensureAccount(on, { memberId, name: 'Ann Lee', mailDomain: 'mailroom.test' });
  return { memberId, accountId: account.id };
}

let nextSubject = 1;
async function issue(deps: WalletDeps, who: { memberId: string; accountId: number }) {
  return createInvoice(deps, {
    ...who,
    purpose: 'thing',
    subjectId: nextSubject++,
    amount: '1.00',
    currency: 'USD',
    description: 'A test thing',
  });
}

function setup() {
  const { purposes, calls } = recordingPurposes();
  const deps: WalletDeps = {
    db,
    wallet: new SandboxWalletGateway(db, 'http://mailroom.localhost'),
    invoicePurposes: purposes,
  };
  return { deps, calls };
}

describe('invoices', () => {
  it('creating the invoice for the same subject again answers the same invoice, issued once at the wallet', async () => {
    const { deps } = setup();
    const who = await member();
    const input = {
      ...who,
      purpose: 'thing',
      subjectId: 9_000_001,
      amount: '1.00',
      currency: 'USD',
      description: 'A test thing',
    };
    const [a, b] = await Promise.all([createInvoice(deps, input), createInvoice(deps, input)]);
    const c = await createInvoice(deps, input);
    expect(b.id).toBe(a.id);
    expect(c.id).toBe(a.id);
    expect(a).toMatchObject({ status: 'unpaid', amount: '1.00', currency: 'USD', settled_at: null });
    expect(a.pay_url).toBe(`http://mailroom.localhost/sandbox/wallet?invoice=${a.wallet_invoice_id}`);
    const atWallet = await db
      .selectFrom('sandbox_wallet_invoices')
      .selectAll()
      .where('member_id', '=', who.memberId)
      .execute();
    expect(atWallet).toHaveLength(1);
    expect(atWallet[0]).toMatchObject({
      id: a.wallet_invoice_id,
      description: 'A test thing',
      status: 'unpaid',
    });
  });

  it('an invoice for a purpose nobody registered is refused before the wallet is asked', async () => {
    const { deps } = setup();
    const who = await member();
    await expect(
      createInvoice(deps, {
        ...who,
        purpose: 'nothing',
        subjectId: 1,
        amount: '1',
        currency: 'USD',
        description: 'x',
      }),
    ).rejects.toThrow(/no handler/);
    expect(
      await db
        .selectFrom('sandbox_wallet_invoices')
        .select('id')
        .where('member_id', '=', who.memberId)
        .execute(),
    ).toEqual([]);
  });

  it('paying settles the invoice once: one ledger row, onPaid once, later reports change nothing', async () => {
    const { deps, calls } = setup();
    const invoice = await issue(deps, await member());
    const paid = await settleInvoice(deps, {
      invoiceId: invoice.id,
      status: 'paid',
      source: 'webhook',
      eventId: 'e1',
    });
    expect(paid.changed).toBe(true);
    expect(paid.invoice.status).toBe('paid');
    expect(paid.invoice.settled_at).toBeInstanceOf(Date);
    // The same event again, a stale 'unpaid', a late rejection, a check: all answer 'paid' and change nothing.
    for (const report of [
      { status: 'paid', source: 'webhook', eventId: 'e1' },
      { status: 'unpaid', source: 'webhook', eventId: 'e0' },
      { status: 'rejected', source: 'webhook', eventId: 'e2' },
      { status: 'paid', source: 'check' },
    ] as const) {
      const again = await settleInvoice(deps, { walletInvoiceId: invoice.wallet_invoice_id, ...report });
      expect(again).toMatchObject({ changed: false, invoice: { status: 'paid' } });
    }
    expect(calls).toEqual([{ kind: 'paid', invoiceId: invoice.id, status: 'paid' }]);
    const ledger = await invoiceLedger(db, invoice.id);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      from_status: 'unpaid',
      to_status: 'paid',
      source: 'webhook',
      event_id: 'e1',
    });
  });

  it('a rejection calls onFailed and the invoice can no longer be paid', async () => {
    const { deps, calls } = setup();
    const invoice = await issue(deps, await member());
    expect(
      (await settleInvoice(deps, { invoiceId: invoice.id, status: 'rejected', source: 'check' })).changed,
    ).toBe(true);
    expect(
      (await settleInvoice(deps, { invoiceId: invoice.id, status: 'paid', source: 'webhook' })).changed,
    ).toBe(false);
    expect(calls).toEqual([{ kind: 'failed', invoiceId: invoice.id, status: 'rejected' }]);
    expect(
      invoiceView(
        (await settleInvoice(deps, { invoiceId: invoice.id, status: 'paid', source: 'check' })).invoice,
      ),
    ).toMatchObject({ id: invoice.wallet_invoice_id, status: 'rejected', pay_url: null });
  });

  it('a handler that fails rolls the change back, so the next report settles it', async () => {
    const { deps } = setup();
    let fail = true;
    const purposes = new InvoicePurposes().register('thing', {
      async onPaid() {
        if (fail) throw new Error('the alias could not be activated');
      },
      async onFailed() {},
    });
    const invoice = await issue({ ...deps, invoicePurposes: purposes }, await member());
    await expect(
      settleInvoice(
        { db, invoicePurposes: purposes },
        { invoiceId: invoice.id, status: 'paid', source: 'webhook', eventId: 'r1' },
      ),
    ).rejects.toThrow('could not be activated');
    expect((await invoiceLedger(db, invoice.id)).length).toBe(0);
    fail = false;
    const retried = await settleInvoice(
      { db, invoicePurposes: purposes },
      { invoiceId: invoice.id, status: 'paid', source: 'webhook', eventId: 'r1' },
    );
    expect(retried).toMatchObject({ changed: true, invoice: { status: 'paid' } });
  });

  it('an unknown invoice is not_found', async () => {
    const { deps } = setup();
    await expect(
      settleInvoice(deps, { walletInvoiceId: 'sbx_none', status: 'paid', source: 'webhook' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(checkInvoice(deps, 987654321)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('checking asks the wallet: unpaid stays unpaid, paid at the wallet settles ours', async () => {
    const { deps, calls } = setup();
    const invoice = await issue(deps, await member());
    expect(await checkInvoice(deps, invoice.id)).toMatchObject({
      changed: false,
      invoice: { status: 'unpaid' },
    });
    // The member paid at the wallet; no webhook came.
    await db
      .updateTable('sandbox_wallet_invoices')
      .set({ status: 'paid' })
      .where('id', '=', invoice.wallet_invoice_id)
      .execute();
    const results = await Promise.all(Array.from({ length: 10 }, () => checkInvoice(deps, invoice.id)));
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(results.every((r) => r.invoice.status === 'paid')).toBe(true);
    expect(calls).toHaveLength(1);
    expect((await invoiceLedger(db, invoice.id)).map((r) => r.source)).toEqual(['check']);
  });
});

describe('the invoice ledger', () => {
  it('refuses to change or remove a row', async () => {
    const { deps } = setup();
    const invoice = await issue(deps, await member());
    await settleInvoice(deps, { invoiceId: invoice.id, status: 'paid', source: 'check' });
    await expect(
      db
        .updateTable('invoice_ledger')
        .set({ to_status: 'rejected' })
        .where('invoice_id', '=', invoice.id)
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(
      db.deleteFrom('invoice_ledger').where('invoice_id', '=', invoice.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(sql`truncate invoice_ledger cascade`.execute(db)).rejects.toThrow(/append-only/);
    expect(await invoiceLedger(db, invoice.id)).toHaveLength(1);
  });
});

describe('the sandbox wallet', () => {
  it("paying on the sandbox settles our invoice as the wallet's notice would, once", async () => {
    const { deps, calls } = setup();
    const who = await member();
    const invoice = await issue(deps, who);
    const paid = await settleInSandbox(deps, invoice.wallet_invoice_id, 'paid', who.memberId);
    expect(paid.status).toBe('paid');
    const again = await settleInSandbox(deps, invoice.wallet_invoice_id, 'rejected', who.memberId);
    expect(again.status).toBe('paid');
    expect(calls).toEqual([{ kind: 'paid', invoiceId: invoice.id, status: 'paid' }]);
    expect((await invoiceLedger(db, invoice.id)).map((r) => [r.to_status, r.source])).toEqual([
      ['paid', 'sandbox'],
    ]);
  });

  it("a member cannot pay another member's invoice", async () => {
    const { deps, calls } = setup();
    const invoice = await issue(deps, await member());
    const other = await member();
    await expect(
      settleInSandbox(deps, invoice.wallet_invoice_id, 'paid', other.memberId),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await deps.wallet.getInvoice(invoice.wallet_invoice_id)).status).toBe('unpaid');
    expect(calls).toEqual([]);
  });

  it('cancelling at the wallet leaves a paid invoice paid', async () => {
    const { deps } = setup();
    const who = await member();
    const a = await issue(deps, who);
    expect((await deps.wallet.cancelInvoice(a.wallet_invoice_id)).status).toBe('cancelled');
    const b = await issue(deps, who);
    await settleInSandbox(deps, b.wallet_invoice_id, 'paid');
    expect((await deps.wallet.cancelInvoice(b.wallet_invoice_id)).status).toBe('paid');
  });

  it('keeps the notices sent to the member, and a few bank accounts that are the same every time', async () => {
    const { deps } = setup();
    const who = await member();
    await deps.wallet.notify(who.memberId, { kind: 'code', title: 'Your code', text: 'Code 123456' });
    const notices = await db
      .selectFrom('sandbox_wallet_notices')
      .select(['kind', 'title', 'text'])
      .where('member_id', '=', who.memberId)
      .execute();
    expect(notices).toEqual([{ kind: 'code', title: 'Your code', text: 'Code 123456' }]);
    const accounts = await deps.wallet.bankAccounts(who.memberId);
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    expect(accounts).toEqual(sandboxBankAccounts(who.memberId));
    expect(accounts.every((a) => /^•••• \d{4}$/.test(a.number))).toBe(true);
    expect(await deps.wallet.bankAccounts('999999999999')).not.toEqual(accounts);
  });
});
