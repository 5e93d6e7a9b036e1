import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDb, testConfig } from '../_util.js';
import { createAccount, deliverTestMessage } from '../_mail.js';
import { changeSettings } from '../../src/accounts/index.js';
import { openBlobStore } from '../../src/core/blobs/index.js';
import {
  createInvoice,
  invoiceLedger,
  InvoicePurposes,
  reconcileInvoices,
  SandboxWalletGateway,
  sendMailNotices,
  type WalletDeps,
} from '../../src/wallet/index.js';

const db = await createTestDb();
const blobs = await openBlobStore(db, path.join((await testConfig()).dataDir, 'blobs'));
const failed: string[] = [];
const purposes = new InvoicePurposes().register('thing', {
  async onPaid() {},
  async onFailed(_trx, invoice) {
    failed.push(invoice.status);
  },
});
const deps: WalletDeps = {
  db,
  wallet: new SandboxWalletGateway(db, 'http://mailroom.localhost'),
  invoicePurposes: purposes,
};

let subject = 1;
async function invoiceAged(ms: number) {
  const account = await createAccount(db);
  const invoice = await createInvoice(deps, {
    accountId: account.id,
    memberId: account.member_id,
    purpose: 'thing',
    subjectId: subject++,
    amount: '1.00',
    currency: 'USD',
    description: 'x',
  });
  await db
    .updateTable('invoices')
    .set({ created_at: new Date(Date.now() - ms) } as never)
    .where('id', '=', invoice.id)
    .execute();
  return invoice;
}

async function noticesOf(memberId: string) {
  return db
    .selectFrom('sandbox_wallet_notices')
    .select(['kind', 'title', 'text'])
    .where('member_id', '=', memberId)
    .orderBy('id')
    .execute();
}

describe('the reconciliation job', () => {
  it('settles an invoice paid at the wallet whose notice never came, and expires one unpaid for a day', async () => {
    const fresh = await invoiceAged(0);
    const paidQuietly = await invoiceAged(2 * 60_000);
    const forgotten = await invoiceAged(25 * 3600_000);
    await db
      .updateTable('sandbox_wallet_invoices')
      .set({ status: 'paid' })
      .where('id', 'in', [fresh.wallet_invoice_id, paidQuietly.wallet_invoice_id])
      .execute();
    await reconcileInvoices(deps);
    expect((await invoiceLedger(db, paidQuietly.id)).map((r) => [r.to_status, r.source])).toEqual([
      ['paid', 'reconcile'],
    ]);
    expect((await invoiceLedger(db, forgotten.id)).map((r) => [r.to_status, r.source])).toEqual([
      ['expired', 'reconcile'],
    ]);
    expect(failed).toEqual(['expired']);
    expect((await deps.wallet.getInvoice(forgotten.wallet_invoice_id)).status).toBe('cancelled');
    // Less than a minute old: left to its webhook.
    expect(await invoiceLedger(db, fresh.id)).toEqual([]);
  });
});

describe('new-mail notices to the wallet application', () => {
  it('two new messages in the window make one notice, and none comes again before the window passes', async () => {
    const account = await createAccount(db);
    for (const [name, subjectLine] of [
      ['Bo Chen', 'One'],
      ['Cy Dorn', 'Two'],
    ] as const) {
      await deliverTestMessage(db, blobs, account.id, {
        from: `${name} <${name.split(' ')[0]!.toLowerCase()}@example.com>`,
        to: account.email,
        subject: subjectLine,
        text: 'hello',
      });
    }
    // Seen mail and other accounts' mail do not count.
    await deliverTestMessage(
      db,
      blobs,
      account.id,
      { from: 'x@example.com', to: account.email, subject: 'read' },
      { seen: true },
    );
    await sendMailNotices(deps);
    const notices = await noticesOf(account.member_id);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.kind).toBe('new_mail');
    expect(notices[0]!.title).toBe('2 new messages');
    expect(notices[0]!.text).toContain('Cy Dorn');
    expect(notices[0]!.text).toContain('Bo Chen');

    await deliverTestMessage(db, blobs, account.id, {
      from: 'Di <di@example.com>',
      to: account.email,
      subject: 'Three',
    });
    await sendMailNotices(deps);
    expect(await noticesOf(account.member_id)).toHaveLength(1);
    // Past the account's 15 minutes: the third message, alone.
    await sendMailNotices(deps, new Date(Date.now() + 16 * 60_000));
    const after = await noticesOf(account.member_id);
    expect(after).toHaveLength(2);
    expect(after[1]!.title).toBe('New mail');
    await sendMailNotices(deps, new Date(Date.now() + 40 * 60_000));
    expect(await noticesOf(account.member_id)).toHaveLength(2);
  });

  it('sends none when the account turned them off (0), and speaks Russian to a Russian account', async () => {
    const off = await createAccount(db);
    await changeSettings(db, off.id, { notify_minutes: 0 });
    const ru = await createAccount(db);
    await changeSettings(db, ru.id, { language: 'ru', notify_minutes: 5 });
    for (const account of [off, ru]) {
      await deliverTestMessage(db, blobs, account.id, {
        from: 'Bo <bo@example.com>',
        to: account.email,
        subject: 'Hi',
      });
    }
    await sendMailNotices(deps);
    expect(await noticesOf(off.member_id)).toEqual([]);
    expect(await noticesOf(ru.member_id)).toEqual([
      { kind: 'new_mail', title: 'Новое письмо', text: 'Новое письмо во «Входящих» от Bo.' },
    ]);
  });
});
