import { describe, expect, it } from 'vitest';
import type { MailEvent, PaidAlias } from '@mailroom/protocol';
import { cleanup, createTestApp, createTestDb } from '../_util.js';
import { mailUser } from '../_actions.js';
import { smtpTransport, startTestIngest } from '../_smtp.js';
import { LiveClient, listenWs } from '../_ws.js';
import { HttpWalletGateway, invoiceLedger, startSandboxWalletServer } from '../../src/wallet/index.js';
import { apiRequest, apiPath } from '../_client.js';

/**
 * A paid alias through the provider's wallet as a real HTTP service (the sandbox wallet server on loopback): the
 * invoice issued over the socket, the payment reported by the signed webhook — out of order and twice — with the
 * app's own 'alias' purpose handling it.
 */
const WEBHOOK_SECRET = 'the webhook secret of the alias test';
const db = await createTestDb();
const sandbox = await startSandboxWalletServer({ db, host: '127.0.0.5', webhookSecret: WEBHOOK_SECRET });
cleanup(() => sandbox.close());
const wallet = new HttpWalletGateway({ apiUrl: sandbox.url, apiKey: sandbox.apiKey, timeoutMs: 2000 });
const ctx = await createTestApp({ db, wallet, env: { WALLET_WEBHOOK_SECRET: WEBHOOK_SECRET } });
const wsUrl = await listenWs(ctx.app);
sandbox.webhookUrl = `${wsUrl.replace(/^ws:/, 'http:').replace(/\/ws$/, '')}${apiPath('walletWebhook')}`;
const ingest = await startTestIngest({ db });

describe("a paid alias settled by the wallet's webhook", () => {
  it('activates once however often the webhook comes, tells the screen after commit, and receives mail', async () => {
    const ann = await mailUser(ctx, 'Ann Webhook');
    const live = await LiveClient.open(wsUrl, { token: ann.browser.cookies.get('mr_sid') });
    await live.greet();
    const from = live.frames.length;
    const created = await apiRequest(ann.browser, 'createPaidAlias', {
      body: { name: `hook${Date.now().toString(36)}` },
    });
    expect(created.statusCode, created.body).toBe(200);
    const alias = created.json().paid_alias as PaidAlias;
    expect(alias.invoice.pay_url).toContain(sandbox.url);

    sandbox.holdWebhooks = true;
    await sandbox.pay(alias.invoice.id);
    const paid = sandbox.held.at(-1)!;
    expect(paid.status).toBe('paid');
    // The same notice three times, as a wallet retrying would send it.
    const statuses = await Promise.all([sandbox.deliver(paid), sandbox.deliver(paid), sandbox.deliver(paid)]);
    expect(statuses.every((s) => s >= 200 && s < 300)).toBe(true);

    // The purchase, then its payment: told once.
    const told: MailEvent = { event: 'updateAccount', part: 'aliases' };
    expect(await live.events(from, 2)).toEqual([told, told]);
    // Read at once on being told: the change is already visible.
    const listed = await apiRequest(ann.browser, 'paidAliases');
    expect(listed.json().paid_aliases).toMatchObject([
      { id: alias.id, status: 'succeed', invoice: { status: 'paid' } },
    ]);
    await new Promise((r) => setTimeout(r, 100));
    expect(live.frames.length).toBe(from + 2);
    const invoice = await db
      .selectFrom('invoices')
      .select('id')
      .where('wallet_invoice_id', '=', alias.invoice.id)
      .executeTakeFirstOrThrow();
    expect((await invoiceLedger(db, invoice.id)).map((l) => [l.to_status, l.source])).toEqual([
      ['paid', 'webhook'],
    ]);

    await smtpTransport(ingest.port).sendMail({
      from: 'a@example.org',
      to: alias.email,
      subject: 'hooked',
      text: 'x',
    });
    const rows = await db
      .selectFrom('messages')
      .select(['subject', 'alias_id'])
      .where('account_id', '=', ann.accountId)
      .execute();
    expect(rows).toEqual([{ subject: 'hooked', alias_id: alias.id }]);
  });

  it("a webhook of rejection fails the alias and frees its name; 'I have already paid' then says pay_invoice_cancel", async () => {
    const bob = await mailUser(ctx, 'Bob Webhook');
    const name = `rej${Date.now().toString(36)}`;
    const created = await apiRequest(bob.browser, 'createPaidAlias', { body: { name } });
    const alias = created.json().paid_alias as PaidAlias;
    sandbox.holdWebhooks = false;
    await sandbox.reject(alias.invoice.id);
    const checked = await apiRequest(bob.browser, 'checkAliasPayment', { params: { id: alias.id } });
    expect(checked.json().error.meta.i8s).toBe('pay_invoice_cancel');
    const again = await apiRequest(bob.browser, 'createAlias', { body: { name } });
    expect(again.statusCode).toBe(200);
  });

  /** An alias bought, then an 'expired' notice (signed, a webhook of its own) before the wallet's 'paid'. */
  async function expiredBeforePaid(user: Awaited<ReturnType<typeof mailUser>>, name: string) {
    const created = await apiRequest(user.browser, 'createPaidAlias', { body: { name } });
    expect(created.statusCode, created.body).toBe(200);
    const alias = created.json().paid_alias as PaidAlias;
    const expired = await sandbox.deliver({
      event_id: `expired-${alias.invoice.id}`,
      invoice_id: alias.invoice.id,
      status: 'expired',
      at: new Date().toISOString(),
    });
    expect(expired).toBe(200);
    const failed = await apiRequest(user.browser, 'paidAliases');
    expect(failed.json().paid_aliases).toMatchObject([{ id: alias.id, status: 'failed' }]);
    sandbox.holdWebhooks = true;
    await sandbox.pay(alias.invoice.id);
    const paid = sandbox.held.at(-1)!;
    sandbox.holdWebhooks = false;
    expect(paid).toMatchObject({ status: 'paid', invoice_id: alias.invoice.id });
    const invoice = await db
      .selectFrom('invoices')
      .select('id')
      .where('wallet_invoice_id', '=', alias.invoice.id)
      .executeTakeFirstOrThrow();
    return { alias, paid, invoiceId: invoice.id };
  }

  it("an 'expired' notice before 'paid': the late payment is honoured, the alias activated once, one ledger row", async () => {
    const dee = await mailUser(ctx, 'Dee Late');
    const { alias, paid, invoiceId } = await expiredBeforePaid(dee, `late${Date.now().toString(36)}`);
    // The wallet retrying, three at once.
    const statuses = await Promise.all([sandbox.deliver(paid), sandbox.deliver(paid), sandbox.deliver(paid)]);
    expect(statuses).toEqual([200, 200, 200]);
    const listed = await apiRequest(dee.browser, 'paidAliases');
    expect(listed.json().paid_aliases).toMatchObject([
      { id: alias.id, status: 'succeed', invoice: { status: 'paid' } },
    ]);
    expect((await invoiceLedger(db, invoiceId)).map((l) => [l.from_status, l.to_status, l.source])).toEqual([
      ['unpaid', 'expired', 'webhook'],
      ['expired', 'paid', 'webhook'],
    ]);
    expect((await wallet.getInvoice(alias.invoice.id)).status).toBe('paid');
  });

  it('a late payment for a name taken meanwhile is paid back through the wallet, once', async () => {
    const eve = await mailUser(ctx, 'Eve Late');
    const fay = await mailUser(ctx, 'Fay Quick');
    const name = `gone${Date.now().toString(36)}`;
    const { alias, paid, invoiceId } = await expiredBeforePaid(eve, name);
    // The failed alias let its name go; another member took it.
    const taken = await apiRequest(fay.browser, 'createAlias', { body: { name } });
    expect(taken.statusCode, taken.body).toBe(200);
    const statuses = await Promise.all([sandbox.deliver(paid), sandbox.deliver(paid), sandbox.deliver(paid)]);
    expect(statuses).toEqual([200, 200, 200]);
    expect((await invoiceLedger(db, invoiceId)).map((l) => [l.from_status, l.to_status, l.source])).toEqual([
      ['unpaid', 'expired', 'webhook'],
      ['expired', 'refund_due', 'webhook'],
      ['refund_due', 'refunded', 'refund'],
    ]);
    expect((await wallet.getInvoice(alias.invoice.id)).status).toBe('refunded');
    const listed = await apiRequest(eve.browser, 'paidAliases');
    expect(listed.json().paid_aliases).toMatchObject([
      { id: alias.id, status: 'failed', invoice: { status: 'refunded' } },
    ]);
  });

  it('the wallet out of reach: the purchase is refused with wallet_unavailable and the name is not held', async () => {
    const cy = await mailUser(ctx, 'Cy Unreachable');
    const name = `down${Date.now().toString(36)}`;
    sandbox.failNext(5, 503);
    const refused = await apiRequest(cy.browser, 'createPaidAlias', { body: { name } });
    expect(refused.json().error.meta.i8s).toBe('wallet_unavailable');
    expect(refused.statusCode).toBeGreaterThanOrEqual(500);
    sandbox.failNext(0);
    const list = await apiRequest(cy.browser, 'aliases');
    expect(list.json().aliases).toEqual([]);
    const bought = await apiRequest(cy.browser, 'createPaidAlias', { body: { name } });
    expect(bought.statusCode, bought.body).toBe(200);
  });
});
