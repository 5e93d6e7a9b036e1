import { describe, expect, it } from 'vitest';
import { cleanup, createTestApp, freshPostgresDatabase } from '../_util.js';
import { ensureAccount } from '../../src/accounts/index.js';
import { openDatabase, type Trx } from '../../src/core/db/index.js';
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

const serverUrl = process.env.DATABASE_URL;
const SECRET = 'the-webhook-secret-of-this-test';

/** A purpose whose payment writes a row in the settling transaction: what "activate the alias" would do. */
function activatingPurpose(calls: number[]) {
  return new InvoicePurposes().register('thing', {
    async onPaid(trx: Trx, invoice: InvoiceRow) {
      calls.push(invoice.id);
      await trx
        .insertInto('sandbox_wallet_notices')
        .values({
          member_id: `activated:${invoice.id}`,
          kind: 'test',
          title: 'activated',
          text: String(invoice.id),
        })
        .execute();
    },
    async onFailed() {},
  });
}

describe.skipIf(!serverUrl)('payments are exactly-once on PostgreSQL', () => {
  it('50 concurrent checks from two processes, with duplicated and reordered webhooks, pay once', async () => {
    const { url, db } = await freshPostgresDatabase(serverUrl!);
    const otherPool = await openDatabase({ kind: 'postgres', url });
    cleanup(() => otherPool.destroy());
    const calls: number[] = [];
    const purposes = activatingPurpose(calls);
    const sandbox = await startSandboxWalletServer({ db, host: '127.0.0.2', webhookSecret: SECRET });
    cleanup(() => sandbox.close());
    const wallet = new HttpWalletGateway({ apiUrl: sandbox.url, apiKey: sandbox.apiKey });
    // Two server processes on one database, each taking webhooks.
    const processes = await Promise.all(
      [db, otherPool].map((pool) =>
        createTestApp({
          db: pool,
          wallet,
          invoicePurposes: purposes,
          env: { WALLET_WEBHOOK_SECRET: SECRET },
        }),
      ),
    );
    const addresses = await Promise.all(processes.map((p) => p.app.listen({ host: '127.0.0.1', port: 0 })));

    const { account } = await ensureAccount(db, {
      memberId: '300000000001',
      name: 'Ann',
      mailDomain: 'mailroom.test',
    });
    const deps: WalletDeps = { db, wallet, invoicePurposes: purposes };
    const invoice = await createInvoice(deps, {
      accountId: account.id,
      memberId: account.member_id,
      purpose: 'thing',
      subjectId: 1,
      amount: '1.00',
      currency: 'USD',
      description: 'Alias x',
    });

    // A stale notice first made (as if the invoice's creation were reported), then the member pays — five taps at once.
    sandbox.holdWebhooks = true;
    await Promise.all(Array.from({ length: 5 }, () => sandbox.pay(invoice.wallet_invoice_id)));
    expect(
      sandbox.events.filter((e) => e.invoice_id === invoice.wallet_invoice_id && e.status === 'paid'),
    ).toHaveLength(1);
    const paid = sandbox.held.find((e) => e.invoice_id === invoice.wallet_invoice_id)!;
    const stale = { ...paid, event_id: 'evt_created', status: 'unpaid' as const };

    const pools = [db, otherPool];
    const results = await Promise.all([
      ...Array.from({ length: 50 }, (_, i) =>
        checkInvoice({ ...deps, db: pools[i % 2]! }, invoice.id).then((r) => r.changed),
      ),
      ...[paid, stale, paid, paid, stale, paid].map((event, i) =>
        sandbox
          .deliver(event, undefined, `${addresses[i % 2]!}${apiPath('walletWebhook')}`)
          .then((status) => {
            expect(status).toBe(200);
            return false;
          }),
      ),
    ]);
    expect(results.filter(Boolean).length).toBeLessThanOrEqual(1);

    const ledger = await invoiceLedger(db, invoice.id);
    expect(ledger.filter((r) => r.to_status === 'paid')).toHaveLength(1);
    expect(ledger).toHaveLength(1);
    expect(calls).toEqual([invoice.id]);
    const activations = await db
      .selectFrom('sandbox_wallet_notices')
      .select('id')
      .where('member_id', '=', `activated:${invoice.id}`)
      .execute();
    expect(activations).toHaveLength(1);
    expect((await wallet.getInvoice(invoice.wallet_invoice_id)).status).toBe('paid');
  });
});
