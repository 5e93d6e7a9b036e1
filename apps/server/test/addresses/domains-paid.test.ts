import { describe, expect, it } from 'vitest';
import type { Domain } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { startTestDns } from '../_dns.js';
import { invoiceLedger, settleInSandbox } from '../../src/wallet/index.js';
import { api } from '../_client.js';

/**
 * Domains beyond FREE_DOMAINS are paid through the wallet (issue 17), with the exactly-once rules of paid aliases:
 * the 'domain' invoice purpose's handler changes the domain once, whichever path reports the payment. Runs on
 * PostgreSQL too with DATABASE_URL set.
 */
const dns = await startTestDns();
const ctx = await createTestApp({ env: { DNS_SERVERS: dns.server, FREE_DOMAINS: '1', DOMAIN_PRICE: '2.5' } });
const { db } = ctx;

let seq = 0;
const fresh = () => `paid${Date.now().toString(36)}${seq++}.test`;

async function add(user: MailUser, name = fresh()): Promise<Domain> {
  const r = await api(user.browser, 'createDomain', { body: { name } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.domain as Domain;
}

async function memberIdOf(user: MailUser): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('member_id')
    .where('id', '=', user.accountId)
    .executeTakeFirstOrThrow();
  return row.member_id;
}

const ourInvoice = (domain: Domain) =>
  db
    .selectFrom('invoices')
    .select(['id', 'status', 'purpose', 'subject_id', 'amount'])
    .where('wallet_invoice_id', '=', domain.invoice!.id)
    .executeTakeFirstOrThrow();

describe('a domain beyond the free number', () => {
  it('is unpaid with an invoice of DOMAIN_PRICE, cannot be verified, and one waits at a time', async () => {
    const ann = await mailUser(ctx, 'Ann Payer');
    const free = await add(ann);
    expect(free).toMatchObject({ paid: false, status: 'prepared', invoice: null });
    const paid = await add(ann);
    expect(paid).toMatchObject({
      paid: true,
      status: 'unpaid',
      invoice: { amount: '2.50', status: 'unpaid' },
    });
    expect(await ourInvoice(paid)).toMatchObject({
      purpose: 'domain',
      subject_id: paid.id,
      status: 'unpaid',
    });

    expect((await api(ann.browser, 'createDomain', { body: { name: fresh() } })).code).toBe(
      'error_domain_status_paying',
    );
    dns.zone.set(paid.name, 'TXT', [paid.verification.txt_value]);
    const early = await api(ann.browser, 'confirmDomain', {
      params: { id: paid.id },
      body: { method: 'dns' },
    });
    expect(early.code).toBe('error_domain_status_paying');
    expect((await api(ann.browser, 'checkDomainPayment', { params: { id: paid.id } })).code).toBe(
      'pay_invoice',
    );
    // A free domain has no payment to check.
    expect((await api(ann.browser, 'checkDomainPayment', { params: { id: free.id } })).code).toBe(
      'entity_not_found',
    );
  });

  it("is settled exactly once however often 'I have already paid' is pressed, then may be verified", async () => {
    const bob = await mailUser(ctx, 'Bob Clicks');
    await add(bob);
    const paid = await add(bob);
    await db
      .updateTable('sandbox_wallet_invoices')
      .set({ status: 'paid' })
      .where('id', '=', paid.invoice!.id)
      .execute();
    const clicks = await Promise.all(
      Array.from({ length: 20 }, () => api(bob.browser, 'checkDomainPayment', { params: { id: paid.id } })),
    );
    expect(clicks.map((c) => c.status)).toEqual(Array(20).fill(200));
    expect(clicks.every((c) => c.body.domain.status === 'prepared')).toBe(true);
    // The sandbox page reporting it again changes nothing.
    await settleInSandbox(ctx, paid.invoice!.id, 'paid', await memberIdOf(bob)).catch(() => undefined);
    const ledger = await invoiceLedger(db, (await ourInvoice(paid)).id);
    expect(ledger.map((l) => [l.from_status, l.to_status])).toEqual([['unpaid', 'paid']]);

    dns.zone.set(paid.name, 'TXT', [paid.verification.txt_value]);
    const verified = await api(bob.browser, 'confirmDomain', {
      params: { id: paid.id },
      body: { method: 'dns' },
    });
    expect(verified.body.domain).toMatchObject({
      status: 'succeed',
      paid: true,
      invoice: { status: 'paid' },
    });
    // Paid for: the next one is paid again, and may be bought now.
    expect((await add(bob)).status).toBe('unpaid');
  });

  it('rejected at the wallet: failed, never verifiable, and the paying slot free again', async () => {
    const cy = await mailUser(ctx, 'Cy Rejects');
    await add(cy);
    const paid = await add(cy);
    await settleInSandbox(ctx, paid.invoice!.id, 'rejected', await memberIdOf(cy));
    expect((await api(cy.browser, 'checkDomainPayment', { params: { id: paid.id } })).code).toBe(
      'pay_invoice_cancel',
    );
    const listed = (await api(cy.browser, 'domains')).body.domains as Domain[];
    expect(listed.find((d) => d.id === paid.id)).toMatchObject({
      status: 'failed',
      invoice: { status: 'rejected' },
    });
    dns.zone.set(paid.name, 'TXT', [paid.verification.txt_value]);
    expect(
      (await api(cy.browser, 'confirmDomain', { params: { id: paid.id }, body: { method: 'dns' } })).code,
    ).toBe('error_domain_status_paying');
    expect((await add(cy)).status).toBe('unpaid');
  });

  it('removed while unpaid: its invoice is cancelled at the wallet', async () => {
    const dee = await mailUser(ctx, 'Dee Gives Up');
    await add(dee);
    const paid = await add(dee);
    expect(
      (await api(dee.browser, 'deleteDomain', { params: { id: paid.id }, query: { confirm: 'delete' } }))
        .status,
    ).toBe(200);
    expect((await ourInvoice(paid)).status).toBe('cancelled');
    expect((await add(dee)).status).toBe('unpaid');
  });
});
