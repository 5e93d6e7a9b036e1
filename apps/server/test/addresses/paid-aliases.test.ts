import { describe, expect, it } from 'vitest';
import type { MailEvent, PaidAlias } from '@mailroom/protocol';
import { Browser, createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { rawSession, smtpTransport, startTestIngest } from '../_smtp.js';
import { LiveClient, listenWs } from '../_ws.js';
import { setPassportLevel } from '../../src/accounts/index.js';
import { afterCommit, transact } from '../../src/core/db/index.js';
import { invoiceLedger, settleInSandbox } from '../../src/wallet/index.js';
import { api, apiRequest, apiCall, type RouteCall } from '../_client.js';

const ctx = await createTestApp();
const { app, db } = ctx;
const wsUrl = await listenWs(app);
const ingest = await startTestIngest({ db });

let seq = 0;
const fresh = (stem = 'paid') => `${stem}${Date.now().toString(36)}${seq++}`;

async function memberIdOf(user: MailUser): Promise<string> {
  const row = await db
    .selectFrom('accounts')
    .select('member_id')
    .where('id', '=', user.accountId)
    .executeTakeFirstOrThrow();
  return row.member_id;
}

async function buy(user: MailUser, name = fresh()): Promise<PaidAlias> {
  const r = await api(user.browser, 'createPaidAlias', { body: { name } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.paid_alias as PaidAlias;
}

/** The member pays (or rejects) the invoice on the sandbox wallet, as its page does. */
async function payInSandbox(user: MailUser, alias: PaidAlias, status: 'paid' | 'rejected' = 'paid') {
  await settleInSandbox(ctx, alias.invoice.id, status, await memberIdOf(user));
}

/** The member opens the invoice's pay link (the sandbox wallet's page) and presses Pay, as in a browser. */
async function payOnSandboxPage(user: MailUser, alias: PaidAlias) {
  const page = await user.browser.get(alias.invoice.pay_url!);
  expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
  expect(page.body).toContain(alias.invoice.id);
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
  expect(token).toBeDefined();
  const paid = await user.browser.request(
    'POST',
    `/sandbox/wallet/invoices/${encodeURIComponent(alias.invoice.id)}/pay`,
    { form: { token: token! } },
  );
  expect(paid.statusCode).toBe(303);
  expect(String(paid.headers.location)).toContain('done=paid');
}

async function rcptCode(address: string): Promise<number> {
  const replies = await rawSession(ingest.port, [
    'EHLO client.example.org\r\n',
    'MAIL FROM:<a@example.org>\r\n',
    `RCPT TO:<${address}>\r\n`,
  ]);
  return replies[3]!.code;
}

async function ourInvoice(alias: PaidAlias) {
  return db
    .selectFrom('invoices')
    .select(['id', 'status', 'purpose', 'subject_id', 'amount'])
    .where('wallet_invoice_id', '=', alias.invoice.id)
    .executeTakeFirstOrThrow();
}

describe('a paid alias end to end on the sandbox wallet', () => {
  it('unpaid with an invoice of 1 unit, refusing mail; paid on the sandbox; checked; then it receives mail', async () => {
    const ann = await mailUser(ctx, 'Ann Buyer');
    const other = await LiveClient.open(wsUrl, { token: ann.browser.cookies.get('mr_sid') });
    await other.greet();
    const from = other.frames.length;

    const name = fresh('Ann.Shop');
    const alias = await buy(ann, name);
    expect(alias).toMatchObject({
      email: `${name.toLowerCase()}@mailroom.test`,
      kind: 'paid',
      status: 'unpaid',
      password_access: false,
      invoice: { amount: '1.00', currency: 'USD', status: 'unpaid' },
    });
    expect(alias.invoice.pay_url).toMatch(/^http/);
    expect(await ourInvoice(alias)).toMatchObject({
      purpose: 'alias',
      subject_id: alias.id,
      status: 'unpaid',
    });

    // Unpaid: no mail, not a sender address, not in the account's aliases; the name is held.
    expect(await rcptCode(alias.email)).toBe(550);
    expect((await api(ann.browser, 'account')).body.aliases).toEqual([]);
    const bob = await mailUser(ctx, 'Bob Late');
    expect((await api(bob.browser, 'createAlias', { body: { name } })).code).toBe('duplicate_aliases');
    expect((await api(bob.browser, 'createPaidAlias', { body: { name } })).code).toBe('duplicate_aliases');
    // One unpaid at a time.
    const second = await api(ann.browser, 'createPaidAlias', { body: { name: fresh() } });
    expect(second.status).toBe(400);
    expect(second.code).toBe('alias_max_count_paying');

    // 'I have already paid' before paying.
    const early = await api(ann.browser, 'checkAliasPayment', { params: { id: alias.id } });
    expect(early.status).toBe(402);
    expect(early.code).toBe('pay_invoice');

    await payOnSandboxPage(ann, alias);
    const checked = await api(ann.browser, 'checkAliasPayment', { params: { id: alias.id } });
    expect(checked.status).toBe(200);
    expect(checked.body.paid_alias).toMatchObject({
      id: alias.id,
      status: 'succeed',
      invoice: { status: 'paid', pay_url: null },
    });
    const listed = await api(ann.browser, 'paidAliases');
    expect(listed.body.paid_aliases).toEqual([checked.body.paid_alias]);
    expect((await api(ann.browser, 'account')).body.aliases).toEqual([{ id: alias.id, email: alias.email }]);

    await smtpTransport(ingest.port).sendMail({
      from: 'a@example.org',
      to: alias.email,
      subject: 'to the paid alias',
      text: 'hello',
    });
    const rows = await db
      .selectFrom('messages')
      .select(['subject', 'alias_id'])
      .where('account_id', '=', ann.accountId)
      .execute();
    expect(rows).toEqual([{ subject: 'to the paid alias', alias_id: alias.id }]);

    // The screen heard of the purchase and of the payment (the sandbox's settling, after its commit).
    const told: MailEvent = { event: 'updateAccount', part: 'aliases' };
    expect(await other.events(from, 2)).toEqual([told, told]);
    // The next paid alias may be bought now.
    await buy(ann);
  });

  it("'I have already paid' settles a payment the wallet has not reported, exactly once however often it is clicked", async () => {
    const cy = await mailUser(ctx, 'Cy Clicks');
    const alias = await buy(cy);
    // The member paid in the wallet application; no webhook has come.
    await db
      .updateTable('sandbox_wallet_invoices')
      .set({ status: 'paid' })
      .where('id', '=', alias.invoice.id)
      .execute();
    const other = await LiveClient.open(wsUrl, { token: cy.browser.cookies.get('mr_sid') });
    await other.greet();
    const from = other.frames.length;
    const clicks = await Promise.all(
      Array.from({ length: 50 }, () => api(cy.browser, 'checkAliasPayment', { params: { id: alias.id } })),
    );
    expect(clicks.map((c) => c.status)).toEqual(Array(50).fill(200));
    expect(clicks.every((c) => c.body.paid_alias.status === 'succeed')).toBe(true);
    const ledger = await invoiceLedger(db, (await ourInvoice(alias)).id);
    expect(ledger.map((l) => [l.from_status, l.to_status, l.source])).toEqual([['unpaid', 'paid', 'check']]);
    expect(await other.events(from, 1)).toEqual([{ event: 'updateAccount', part: 'aliases' }]);
    await new Promise((r) => setTimeout(r, 100));
    expect(other.frames.length).toBe(from + 1);
    expect(await rcptCode(alias.email)).toBe(250);
  });

  it('rejected at the wallet: pay_invoice_cancel, the alias failed, its name free again', async () => {
    const dee = await mailUser(ctx, 'Dee Rejects');
    const name = fresh('rejected');
    const alias = await buy(dee, name);
    await payInSandbox(dee, alias, 'rejected');
    const checked = await api(dee.browser, 'checkAliasPayment', { params: { id: alias.id } });
    expect(checked.status).toBe(400);
    expect(checked.code).toBe('pay_invoice_cancel');
    const listed = (await api(dee.browser, 'paidAliases')).body.paid_aliases;
    expect(listed).toMatchObject([{ id: alias.id, status: 'failed', invoice: { status: 'rejected' } }]);
    expect(await rcptCode(alias.email)).toBe(550);
    // The name is free, and so is the account's one paying slot.
    const eve = await mailUser(ctx, 'Eve Takes');
    const taken = await api(eve.browser, 'createAlias', { body: { name } });
    expect(taken.status).toBe(200);
    await buy(dee);
    // The failed one is cleared from the list by deleting it.
    expect((await api(dee.browser, 'deletePaidAlias', { params: { id: alias.id } })).status).toBe(200);
    expect(
      (await api(dee.browser, 'paidAliases')).body.paid_aliases.map((a: PaidAlias) => a.id),
    ).not.toContain(alias.id);
  });

  it('given up while unpaid: the invoice is cancelled at the wallet and the name is free', async () => {
    const fay = await mailUser(ctx, 'Fay Gives Up');
    const name = fresh('giveup');
    const alias = await buy(fay, name);
    const gone = await api(fay.browser, 'deletePaidAlias', { params: { id: alias.id } });
    expect(gone).toEqual({ status: 200, body: { ok: true } });
    const wallet = await db
      .selectFrom('sandbox_wallet_invoices')
      .select('status')
      .where('id', '=', alias.invoice.id)
      .executeTakeFirstOrThrow();
    expect(wallet.status).toBe('cancelled');
    expect((await ourInvoice(alias)).status).toBe('cancelled');
    expect((await api(fay.browser, 'paidAliases')).body.paid_aliases).toEqual([]);
    const again = await buy(fay, name);
    expect(again.email).toBe(alias.email);
    // Paying the cancelled invoice afterwards activates nothing.
    await payInSandbox(fay, alias).catch(() => undefined);
    expect(await rcptCode(alias.email)).toBe(550);
  });

  it('DELETE user/aliases/{id} gives an unpaid paid alias up the same way', async () => {
    const gus = await mailUser(ctx, 'Gus Plain Delete');
    const alias = await buy(gus);
    expect((await api(gus.browser, 'deleteAlias', { params: { id: alias.id } })).status).toBe(200);
    expect((await ourInvoice(alias)).status).toBe('cancelled');
    expect((await api(gus.browser, 'aliases')).body.aliases).toEqual([]);
  });

  it('a paid alias deleted after it succeeded refuses mail again', async () => {
    const hal = await mailUser(ctx, 'Hal Deletes Paid');
    const alias = await buy(hal);
    await payInSandbox(hal, alias);
    expect(await rcptCode(alias.email)).toBe(250);
    expect((await api(hal.browser, 'deletePaidAlias', { params: { id: alias.id } })).status).toBe(200);
    expect(await rcptCode(alias.email)).toBe(550);
  });

  it('paid aliases pass the same rules: names, passport', async () => {
    const ivy = await mailUser(ctx, 'Ivy Rules');
    for (const [name, code] of [
      ['ab', 'specify_3_30'],
      ['123456789012', 'invalid_alias_member_id'],
      ['w123456789012', 'invalid_alias_purse'],
      ['wallet', 'alias_stoplist'],
    ]) {
      expect((await api(ivy.browser, 'createPaidAlias', { body: { name } })).code, name).toBe(code);
    }
    await setPassportLevel(db, ivy.accountId, 'none');
    const r = await api(ivy.browser, 'createPaidAlias', { body: { name: fresh() } });
    expect(r.status).toBe(403);
    expect(r.code).toBe('passport_level_required');
    expect(
      await db.selectFrom('invoices').select('id').where('account_id', '=', ivy.accountId).execute(),
    ).toEqual([]);
  });
});

describe("another account's paid alias is alias_not_found, never data", () => {
  it('check_payment, delete and delete paid with its id; a free alias id on the paid routes', async () => {
    const jay = await mailUser(ctx, 'Jay Owner');
    const kim = await mailUser(ctx, 'Kim Intruder');
    const alias = await buy(jay);
    const params = { id: alias.id };
    for (const call of [
      ['checkAliasPayment', { params }],
      ['deletePaidAlias', { params }],
      ['deleteAlias', { params }],
    ] satisfies RouteCall[]) {
      const r = await apiCall(kim.browser, call);
      expect(r.status, call[0]).toBe(404);
      expect(r.code, call[0]).toBe('alias_not_found');
      expect(JSON.stringify(r.body), call[0]).not.toContain(alias.invoice.id);
    }
    expect((await api(kim.browser, 'paidAliases')).body.paid_aliases).toEqual([]);
    expect((await ourInvoice(alias)).status).toBe('unpaid');
    const free = (await api(kim.browser, 'createAlias', { body: { name: fresh('kimfree') } })).body.alias;
    for (const call of [
      ['checkAliasPayment', { params: { id: free.id } }],
      ['deletePaidAlias', { params: { id: free.id } }],
    ] satisfies RouteCall[]) {
      expect((await apiCall(kim.browser, call)).code, call[0]).toBe('alias_not_found');
    }
  });

  it('bad bodies and ids are 400 with a catalogue code', async () => {
    const lou = await mailUser(ctx, 'Lou Bodies');
    for (const body of [{}, { name: '' }, { name: null }, 'x']) {
      const r = await api(lou.browser, 'createPaidAlias', { body: body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.code).toMatch(/^[a-z_0-9]+$/);
    }
    for (const id of ['abc', '0', '-5']) {
      for (const call of [
        ['checkAliasPayment', { params: { id } }],
        ['deletePaidAlias', { params: { id } }],
      ] satisfies RouteCall[]) {
        const r = await apiCall(lou.browser, call);
        expect(r.status, `${call[0]} ${id}`).toBe(400);
        expect(r.code, `${call[0]} ${id}`).toMatch(/^[a-z_0-9]+$/);
      }
    }
  });

  it('an alias-only session is refused every paid route', async () => {
    const max = await mailUser(ctx, 'Max Desk');
    const free = (await api(max.browser, 'createAlias', { body: { name: fresh('maxdesk') } })).body.alias;
    const password = 'desk password 9';
    await api(max.browser, 'updateAliasAccess', {
      body: {
        email: free.email,
        password,
        password_confirm: password,
      },
    });
    const desk = new Browser(app);
    await apiRequest(desk, 'passwordSignIn', { body: { email: free.email, password } });
    for (const call of [
      ['paidAliases'],
      ['createPaidAlias', { body: { name: fresh() } }],
      ['checkAliasPayment', { params: { id: free.id } }],
      ['deletePaidAlias', { params: { id: free.id } }],
    ] satisfies RouteCall[]) {
      const r = await apiCall(desk, call);
      expect(r.status, call[0]).toBe(403);
      expect(r.code, call[0]).toBe('forbidden');
    }
  });
});

describe('afterCommit', () => {
  it('runs its hook once the outermost transaction commits, and never when it rolls back', async () => {
    const ran: string[] = [];
    await transact(db, async (trx) => {
      await transact(trx, async (inner) => {
        afterCommit(inner, () => ran.push('inner'));
      });
      afterCommit(trx, () => ran.push('outer'));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['inner', 'outer']);
    await expect(
      transact(db, async (trx) => {
        afterCommit(trx, () => ran.push('rolled back'));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(ran).toEqual(['inner', 'outer']);
  });
});
