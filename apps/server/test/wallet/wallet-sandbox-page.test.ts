import { describe, expect, it } from 'vitest';
import { Browser, createTestApp, signUpAndSignIn } from '../_util.js';
import { findAccountByMemberId } from '../../src/accounts/index.js';
import { createInvoice, invoiceLedger, InvoicePurposes, type InvoiceRow } from '../../src/wallet/index.js';
import { apiRequest } from '../_client.js';

const paid: number[] = [];
const invoicePurposes = new InvoicePurposes().register('thing', {
  async onPaid(_trx, invoice: InvoiceRow) {
    paid.push(invoice.id);
  },
  async onFailed() {},
});
const { app, db, wallet } = await createTestApp({ invoicePurposes });

let subject = 1;
async function invoiceFor(memberId: string) {
  const account = (await findAccountByMemberId(db, memberId))!;
  return createInvoice(
    { db, wallet, invoicePurposes },
    {
      accountId: account.id,
      memberId,
      purpose: 'thing',
      subjectId: subject++,
      amount: '1.00',
      currency: 'USD',
      description: 'Alias ann.lee',
    },
  );
}
const tokenOf = (body: string) => /name="token" value="([^"]+)"/.exec(body)?.[1] ?? '';

describe('the sandbox wallet page', () => {
  it("shows the member's invoices and notices, and Pay settles our invoice once", async () => {
    const { browser, memberId } = await signUpAndSignIn(app);
    const invoice = await invoiceFor(memberId);
    await wallet.notify(memberId, { kind: 'code', title: 'Confirmation code', text: 'Your code: 482913' });
    const page = await browser.get(new URL(invoice.pay_url).pathname + new URL(invoice.pay_url).search);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(invoice.wallet_invoice_id);
    expect(page.body).toContain('Alias ann.lee');
    expect(page.body).toContain('Your code: 482913');
    expect(page.body).toContain(`/sandbox/wallet/invoices/${invoice.wallet_invoice_id}/pay`);

    const payUrl = `/sandbox/wallet/invoices/${invoice.wallet_invoice_id}/pay?lang=en`;
    const form = { token: tokenOf(page.body) };
    const done = await browser.request('POST', payUrl, { form, csrf: false });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toContain('done=paid');
    expect((await browser.request('POST', payUrl, { form, csrf: false })).statusCode).toBe(303);
    expect((await invoiceLedger(db, invoice.id)).map((r) => [r.to_status, r.source])).toEqual([
      ['paid', 'sandbox'],
    ]);
    expect(paid.filter((id) => id === invoice.id)).toHaveLength(1);
    const after = await browser.get('/sandbox/wallet?lang=ru');
    expect(after.body).toContain('оплачен');
    expect(after.body).toContain('Тестовый кошелёк');
    expect(after.body).not.toContain(`${invoice.wallet_invoice_id}/pay`);
  });

  it('refuses a POST without the page token or from another origin', async () => {
    const { browser, memberId } = await signUpAndSignIn(app);
    const invoice = await invoiceFor(memberId);
    const page = await browser.get('/sandbox/wallet');
    const url = `/sandbox/wallet/invoices/${invoice.wallet_invoice_id}/reject`;
    expect((await browser.request('POST', url, { form: { token: 'forged' }, csrf: false })).statusCode).toBe(
      403,
    );
    const foreign = await browser.request('POST', url, {
      form: { token: tokenOf(page.body) },
      csrf: false,
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(403);
    expect((await wallet.getInvoice(invoice.wallet_invoice_id)).status).toBe('unpaid');
    expect(
      (await browser.request('POST', url, { form: { token: tokenOf(page.body) }, csrf: false })).headers
        .location,
    ).toContain('done=rejected');
    expect((await wallet.getInvoice(invoice.wallet_invoice_id)).status).toBe('rejected');
  });

  it('another member cannot see or pay the invoice; no session sees none', async () => {
    const { memberId } = await signUpAndSignIn(app, 'Ann');
    const invoice = await invoiceFor(memberId);
    const { browser: other, memberId: bo } = await signUpAndSignIn(app, 'Bo');
    const own = await invoiceFor(bo);
    const page = await other.get('/sandbox/wallet');
    expect(page.body).not.toContain(invoice.wallet_invoice_id);
    expect(page.body).toContain(own.wallet_invoice_id);
    const tried = await other.request('POST', `/sandbox/wallet/invoices/${invoice.wallet_invoice_id}/pay`, {
      form: { token: tokenOf(page.body) },
      csrf: false,
    });
    expect(tried.headers.location).toContain('done=not_found');
    expect((await wallet.getInvoice(invoice.wallet_invoice_id)).status).toBe('unpaid');
    const anonymous = await new Browser(app).get('/sandbox/wallet?lang=ru');
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).toContain('Сначала войдите в Mailroom');
  });

  it("a session that opened another member's mailbox is shown neither their invoices nor their codes, and cannot pay", async () => {
    const { browser: owner, memberId: ownerId } = await signUpAndSignIn(app, 'Ola Owner');
    const { browser: grantee, memberId: granteeId } = await signUpAndSignIn(app, 'Gus Grantee');
    const invoice = await invoiceFor(ownerId);
    await wallet.notify(ownerId, { kind: 'code', title: 'Confirmation code', text: 'Your code: 730215' });
    const granted = await apiRequest(owner, 'grantImpersonation', { query: { member_id: granteeId } });
    expect(granted.statusCode).toBe(200);
    // Before switching in: the grantee's own wallet, and the form token the page carries.
    const ownPage = await grantee.get('/sandbox/wallet');
    expect((await apiRequest(grantee, 'impersonate', { body: { member_id: ownerId } })).statusCode).toBe(200);

    for (const lang of ['en', 'ru'] as const) {
      const page = await grantee.get(`/sandbox/wallet?lang=${lang}`);
      expect(page.statusCode).toBe(403);
      expect(page.body).not.toContain(invoice.wallet_invoice_id);
      expect(page.body).not.toContain('730215');
      expect(page.body).not.toContain('name="token"');
      expect(page.body).toContain(
        lang === 'en' ? 'a wallet is shown to its owner only' : 'кошелёк виден только его владельцу',
      );
    }
    const url = `/sandbox/wallet/invoices/${invoice.wallet_invoice_id}/pay`;
    // Neither the grantee's own page token nor one made for the owner's account pays the owner's invoice.
    for (const token of [tokenOf(ownPage.body), tokenOf((await owner.get('/sandbox/wallet')).body)]) {
      const tried = await grantee.request('POST', url, { form: { token }, csrf: false });
      expect(tried.statusCode).not.toBe(303);
    }
    expect((await wallet.getInvoice(invoice.wallet_invoice_id)).status).toBe('unpaid');
    expect(await invoiceLedger(db, invoice.id)).toEqual([]);

    // Back in their own mailbox, the grantee sees their own wallet again.
    expect((await apiRequest(grantee, 'endImpersonation')).statusCode).toBe(200);
    const back = await grantee.get('/sandbox/wallet');
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain(granteeId);
    expect(back.body).not.toContain(invoice.wallet_invoice_id);
  });

  it('is not served when the wallet is the provider’s API', async () => {
    const { app: real } = await createTestApp({
      env: {
        WALLET_API_URL: 'http://127.0.0.1:9/',
        WALLET_API_KEY: 'k',
        WALLET_WEBHOOK_SECRET: 'a-secret-of-16-chars',
      },
    });
    expect((await new Browser(real).get('/sandbox/wallet')).statusCode).toBe(404);
  });
});
