import { describe, expect, it } from 'vitest';
import type { DomainEmail } from '@mailroom/protocol';
import { Browser, createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { rawSession, smtpTransport, startTestIngest } from '../_smtp.js';
import { startMxDns } from '../_mx-dns.js';
import { until } from '../_sending.js';
import { invoiceLedger, settleInSandbox } from '../../src/wallet/index.js';
import { api, apiRequest, apiCall, type RouteCall } from '../_client.js';

const MX_HOST = 'mx.mailroom.test';
const dns = await startMxDns();
const ctx = await createTestApp({
  env: { DNS_SERVERS: dns.server, MX_HOST, FREE_DOMAIN_EMAILS: '2', AUTH_RATE_LIMIT: '10000' },
});
const { db } = ctx;
const ingest = await startTestIngest({ db });

let seq = 0;
const freshDomain = () => `corp${Date.now().toString(36)}${seq++}.test`;

/** Fixture: a domain the account verified (the domains helper's flow is not under test here). */
async function verifiedDomain(user: MailUser, name = freshDomain(), mx: string[] = [MX_HOST]) {
  const row = await db
    .insertInto('domains')
    .values({
      account_id: user.accountId,
      kind: 'own',
      name,
      display_name: name,
      status: 'succeed',
      token: `fixture-${name}`,
      verified_at: new Date(),
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  dns.mx.set(name, mx);
  return row;
}

/** Fixture: one of the service's public domains (PUBLIC_DOMAINS' rows, as syncPublicDomainRows keeps them). */
function publicDomain(name = freshDomain()) {
  return db
    .insertInto('domains')
    .values({ kind: 'public', account_id: null, name, display_name: name, token: '-' })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

async function create(user: MailUser, domainId: number, name: string, catchAll?: boolean) {
  const r = await api(user.browser, 'createDomainEmail', {
    params: { id: domainId },
    body: {
      name,
      ...(catchAll === undefined ? {} : { catch_all: catchAll }),
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.email as DomainEmail;
}

async function confirm(user: MailUser, emailId: number) {
  return api(user.browser, 'confirmDomainEmail', { params: { emailId } });
}

/** An active address: created, then confirmed against the loopback MX. */
async function activeAddress(user: MailUser, domainId: number, name: string, catchAll?: boolean) {
  const email = await create(user, domainId, name, catchAll);
  const confirmed = await confirm(user, email.id);
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
  return confirmed.body.email as DomainEmail;
}

async function rcptCode(address: string): Promise<number> {
  const replies = await rawSession(ingest.port, [
    'EHLO client.example\r\n',
    'MAIL FROM:<sender@example.com>\r\n',
    `RCPT TO:<${address}>\r\n`,
    'QUIT\r\n',
  ]);
  return replies[3]!.code;
}

async function sendOverSmtp(to: string, subject: string) {
  await smtpTransport(ingest.port).sendMail({ from: 'sender@example.com', to, subject, text: 'hello' });
}

const messagesTo = (accountId: number, subject: string) =>
  db
    .selectFrom('messages')
    .select(['id', 'alias_id', 'folder_id', 'subject'])
    .where('account_id', '=', accountId)
    .where('subject', '=', subject)
    .execute();

describe('an address on an own domain', () => {
  it('starts prepared, is confirmed once the MX points here, and then receives over SMTP under its own view', async () => {
    const ann = await mailUser(ctx, 'Ann Lee');
    const domain = await verifiedDomain(ann, freshDomain(), ['mx.elsewhere.example']);
    const email = await create(ann, domain.id, 'Sales');
    expect(email).toMatchObject({
      domain_id: domain.id,
      email: `sales@${domain.name}`,
      status: 'prepared',
      catch_all: false,
      password_access: false,
      delegate: null,
      paid: false,
      invoice: null,
    });
    // Prepared: not receiving yet.
    expect(await rcptCode(email.email)).toBe(550);

    const refused = await confirm(ann, email.id);
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('invalid_domain_for_mail_server');
    dns.mx.set(domain.name, ['mx.elsewhere.example', MX_HOST]);
    const confirmed = await confirm(ann, email.id);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.email.status).toBe('succeed');

    expect(await rcptCode(email.email)).toBe(250);
    expect(await rcptCode(`SALES@${domain.name.toUpperCase()}`)).toBe(250);
    await sendOverSmtp(email.email, 'Order 1');
    const [stored] = await until(async () => {
      const rows = await messagesTo(ann.accountId, 'Order 1');
      return rows.length ? rows : undefined;
    });
    expect(stored).toMatchObject({ alias_id: email.id, folder_id: ann.folders.inbox });
    // The sidebar's view of the address lists it; the primary address's view does not.
    const view = await api(ann.browser, 'folderMessages', {
      params: { folder_id: ann.folders.inbox },
      query: { a_id: email.id },
    });
    expect(view.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['Order 1']);
    const primary = await api(ann.browser, 'folderMessages', {
      params: { folder_id: ann.folders.inbox },
      query: { a_id: '0' },
    });
    expect(primary.body.messages.map((m: { subject: string }) => m.subject)).not.toContain('Order 1');

    const list = await api(ann.browser, 'domainEmails', { params: { id: domain.id } });
    expect(list.body.emails.map((e: DomainEmail) => [e.email, e.status])).toEqual([[email.email, 'succeed']]);
  });

  it('follows the alias name rules, refuses names taken and domains not verified', async () => {
    const ann = await mailUser(ctx, 'Ann Rules');
    const domain = await verifiedDomain(ann);
    for (const [name, code] of [
      ['ab', 'specify_3_30'],
      ['bad name', 'invalid_alias'],
      ['123456789012', 'invalid_alias_member_id'],
    ] as const) {
      const r = await api(ann.browser, 'createDomainEmail', { params: { id: domain.id }, body: { name } });
      expect(r.code, name).toBe(code);
    }
    // The stop list is the service's: a member's own domain may have admin@ and sales@.
    await create(ann, domain.id, 'admin');
    await create(ann, domain.id, 'office');
    const again = await api(ann.browser, 'createDomainEmail', {
      params: { id: domain.id },
      body: { name: 'Office' },
    });
    expect(again.code).toBe('duplicate_aliases');

    const pending = await db
      .insertInto('domains')
      .values({
        account_id: ann.accountId,
        name: freshDomain(),
        display_name: 'x',
        token: 't',
        status: 'waiting',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const unverified = await api(ann.browser, 'createDomainEmail', {
      params: { id: pending.id },
      body: {
        name: 'office',
      },
    });
    expect(unverified.code).toBe('domain_not_verified');
  });

  it('a catch-all receives mail to unknown names on the domain until it stops being one', async () => {
    const ann = await mailUser(ctx, 'Ann Catch');
    const domain = await verifiedDomain(ann);
    expect(await rcptCode(`anything@${domain.name}`)).toBe(550);
    const desk = await activeAddress(ann, domain.id, 'desk', true);
    expect(desk.catch_all).toBe(true);
    await sendOverSmtp(`whoever@${domain.name}`, 'Stray');
    const [stray] = await until(async () => {
      const rows = await messagesTo(ann.accountId, 'Stray');
      return rows.length ? rows : undefined;
    });
    expect(stray!.alias_id).toBe(desk.id);

    // Another address takes the role over; then none has it.
    const other = await activeAddress(ann, domain.id, 'other');
    const moved = await api(ann.browser, 'updateDomainEmail', {
      params: { id: domain.id, emailId: other.id },
      body: {
        catch_all: true,
      },
    });
    expect(moved.body.email.catch_all).toBe(true);
    const list = await api(ann.browser, 'domainEmails', { params: { id: domain.id } });
    expect(list.body.emails.map((e: DomainEmail) => [e.email.split('@')[0], e.catch_all])).toEqual([
      ['desk', false],
      ['other', true],
    ]);
    await api(ann.browser, 'updateDomainEmail', {
      params: { id: domain.id, emailId: other.id },
      body: { catch_all: false },
    });
    expect(await rcptCode(`anything@${domain.name}`)).toBe(550);
    expect(await rcptCode(`desk@${domain.name}`)).toBe(250);
  });

  it('a removed address is refused at RCPT, its mail kept; foreign domains are relaying, refused', async () => {
    const ann = await mailUser(ctx, 'Ann Remove');
    const domain = await verifiedDomain(ann);
    const email = await activeAddress(ann, domain.id, 'leaving', true);
    await sendOverSmtp(email.email, 'Kept');
    await until(async () => (await messagesTo(ann.accountId, 'Kept')).length > 0);
    const removed = await api(ann.browser, 'deleteDomainEmail', {
      params: { id: domain.id, emailId: email.id },
    });
    expect(removed.status).toBe(200);
    expect(await rcptCode(email.email)).toBe(550);
    // It was the catch-all: unknown names are refused too.
    expect(await rcptCode(`other@${domain.name}`)).toBe(550);
    expect(await messagesTo(ann.accountId, 'Kept')).toHaveLength(1);
    expect((await api(ann.browser, 'domainEmails', { params: { id: domain.id } })).body.emails).toEqual([]);
    // The name is free again.
    await create(ann, domain.id, 'leaving');

    const replies = await rawSession(ingest.port, [
      'EHLO client.example\r\n',
      'MAIL FROM:<sender@example.com>\r\n',
      'RCPT TO:<someone@not-ours.example>\r\n',
      'QUIT\r\n',
    ]);
    expect(replies[3]).toMatchObject({ code: 550 });
    expect(replies[3]!.text).toMatch(/relay/i);
  });

  it("another account's domain and address ids are entity_not_found on every route", async () => {
    const ann = await mailUser(ctx, 'Ann Owner');
    const eve = await mailUser(ctx, 'Eve Other');
    const domain = await verifiedDomain(ann);
    const email = await activeAddress(ann, domain.id, 'private');
    const eveDomain = await verifiedDomain(eve);
    const params = { id: domain.id, emailId: email.id };
    const underEve = { id: eveDomain.id, emailId: email.id };
    const routes: RouteCall[] = [
      ['domainEmails', { params: { id: domain.id } }],
      ['createDomainEmail', { params: { id: domain.id }, body: { name: 'intruder' } }],
      ['updateDomainEmail', { params, body: { catch_all: true } }],
      ['delegateDomainEmail', { params, body: { member_id: null } }],
      ['deleteDomainEmail', { params }],
      ['confirmDomainEmail', { params: { emailId: email.id } }],
      ['checkDomainEmailPayment', { params }],
      ['domainEmailAccess', { params, body: { password: 'x-long-pass', password_confirm: 'x-long-pass' } }],
      // Ann's address under Eve's own domain id.
      ['updateDomainEmail', { params: underEve, body: { catch_all: true } }],
      ['deleteDomainEmail', { params: underEve }],
      ['delegateDomainEmail', { params: underEve, body: { member_id: null } }],
    ];
    for (const call of routes) {
      const r = await apiCall(eve.browser, call);
      expect([r.status, r.code], `${call[0]} ${JSON.stringify(call[1])}`).toEqual([404, 'entity_not_found']);
    }
    expect(await rcptCode(email.email)).toBe(250);
    expect((await api(ann.browser, 'domainEmails', { params: { id: domain.id } })).body.emails).toHaveLength(
      1,
    );
  });

  it('password access: set twice and equal, signs in at /auth/pw/login to that address’s mail only', async () => {
    const ann = await mailUser(ctx, 'Ann Access');
    const domain = await verifiedDomain(ann);
    const email = await activeAddress(ann, domain.id, 'frontdesk');
    const access = { params: { id: domain.id, emailId: email.id } };
    const mismatch = await api(ann.browser, 'domainEmailAccess', {
      ...access,
      body: {
        password: 'desk-password-1',
        password_confirm: 'desk-password-2',
      },
    });
    expect(mismatch.code).toBe('passwords_do_not_match');
    const set = await api(ann.browser, 'domainEmailAccess', {
      ...access,
      body: {
        password: 'desk-password-1',
        password_confirm: 'desk-password-1',
      },
    });
    expect(set.status).toBe(200);
    expect(set.body.email.password_access).toBe(true);

    await sendOverSmtp(email.email, 'For the desk');
    await ann.deliver({ from: 'x@example.com', subject: 'Private to Ann', text: 'secret' });
    await until(async () => (await messagesTo(ann.accountId, 'For the desk')).length > 0);

    const desk = new Browser(ctx.app);
    const login = await apiRequest(desk, 'passwordSignIn', {
      body: { email: email.email.toUpperCase(), password: 'desk-password-1' },
    });
    expect(login.statusCode).toBe(200);
    const inbox = await api(desk, 'folderMessages', { params: { folder_id: ann.folders.inbox } });
    expect(inbox.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['For the desk']);
    // The address-only user manages nothing.
    const forbidden = await api(desk, 'domainEmails', { params: { id: domain.id } });
    expect(forbidden.status).toBe(403);

    // A new password ends the session signed in with the old one.
    await api(ann.browser, 'domainEmailAccess', {
      ...access,
      body: { password: 'desk-password-3', password_confirm: 'desk-password-3' },
    });
    expect((await api(desk, 'folderMessages', { params: { folder_id: ann.folders.inbox } })).status).toBe(
      401,
    );
    // At most five changes an hour, like aliases.
    for (let i = 0; i < 3; i++)
      await api(ann.browser, 'domainEmailAccess', { ...access, body: { password: null } });
    const limited = await api(ann.browser, 'domainEmailAccess', { ...access, body: { password: null } });
    expect(limited.code).toBe('alias_access_limit');
  });

  it("the aliases screen's password route refuses a domain address with alias_not_found, not 500, and changes nothing", async () => {
    const kit = await mailUser(ctx, 'Kit Domain');
    const domain = await verifiedDomain(kit);
    const email = await activeAddress(kit, domain.id, 'reception');
    const refused = await api(kit.browser, 'updateAliasAccess', {
      body: {
        email: email.email,
        password: 'desk-password-1',
        password_confirm: 'desk-password-1',
      },
    });
    expect([refused.status, refused.code]).toEqual([404, 'alias_not_found']);
    const desk = new Browser(ctx.app);
    const login = await apiRequest(desk, 'passwordSignIn', {
      body: { email: email.email, password: 'desk-password-1' },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('paid addresses on domains', () => {
  it('beyond FREE_DOMAIN_EMAILS on own domains: unpaid with an invoice, settled exactly once, then confirmed', async () => {
    const ann = await mailUser(ctx, 'Ann Pays');
    const domain = await verifiedDomain(ann);
    await create(ann, domain.id, 'first');
    await create(ann, domain.id, 'second');
    const third = await create(ann, domain.id, 'third');
    expect(third).toMatchObject({ status: 'unpaid', paid: true, invoice: { status: 'unpaid' } });
    const invoice = await db
      .selectFrom('invoices')
      .select(['id', 'purpose', 'subject_id', 'amount'])
      .where('purpose', '=', 'domain_email')
      .where('subject_id', '=', third.id)
      .executeTakeFirstOrThrow();
    expect(invoice.amount).toBe('1.00');
    expect((await confirm(ann, third.id)).code).toBe('error_domain_status_paying');
    const paid = { params: { id: domain.id, emailId: third.id } };
    expect((await api(ann.browser, 'checkDomainEmailPayment', paid)).code).toBe('pay_invoice');
    expect(await rcptCode(third.email)).toBe(550);

    // Paid in the wallet; many 'I have already paid' at once settle it once.
    await db
      .updateTable('sandbox_wallet_invoices')
      .set({ status: 'paid' })
      .where('id', '=', third.invoice!.id)
      .execute();
    const clicks = await Promise.all(
      Array.from({ length: 20 }, () => api(ann.browser, 'checkDomainEmailPayment', paid)),
    );
    expect(clicks.map((c) => c.status)).toEqual(Array(20).fill(200));
    expect(clicks.every((c) => c.body.email.status === 'prepared')).toBe(true);
    const ledger = await invoiceLedger(db, invoice.id);
    expect(ledger.map((l) => [l.from_status, l.to_status])).toEqual([['unpaid', 'paid']]);
    const confirmed = await confirm(ann, third.id);
    expect(confirmed.body.email).toMatchObject({
      status: 'succeed',
      paid: true,
      invoice: { status: 'paid' },
    });
    expect(await rcptCode(third.email)).toBe(250);
  });

  it('on a public domain always paid, and active once paid; rejected fails it and frees the name', async () => {
    const ann = await mailUser(ctx, 'Ann Public');
    const memberId = (
      await db
        .selectFrom('accounts')
        .select('member_id')
        .where('id', '=', ann.accountId)
        .executeTakeFirstOrThrow()
    ).member_id;
    const pub = await publicDomain();
    const publicName = pub.name;
    const catchAll = await api(ann.browser, 'createDomainEmail', {
      params: { id: pub.id },
      body: {
        name: 'grab',
        catch_all: true,
      },
    });
    expect(catchAll.code).toBe('forbidden');
    const stopped = await api(ann.browser, 'createDomainEmail', {
      params: { id: pub.id },
      body: { name: 'admin' },
    });
    expect(stopped.code).toBe('alias_stoplist');
    const bought = await create(ann, pub.id, 'annie');
    expect(bought).toMatchObject({ status: 'unpaid', paid: true });
    expect(await rcptCode(bought.email)).toBe(550);
    expect(await rcptCode(`nobody@${publicName}`)).toBe(550);
    await settleInSandbox(ctx, bought.invoice!.id, 'paid', memberId);
    const list = await api(ann.browser, 'domainEmails', { params: { id: pub.id } });
    expect(list.body.emails[0]).toMatchObject({ email: bought.email, status: 'succeed' });
    expect(await rcptCode(bought.email)).toBe(250);

    const rejected = await create(ann, pub.id, 'second-try');
    await settleInSandbox(ctx, rejected.invoice!.id, 'rejected', memberId);
    const checked = await api(ann.browser, 'checkDomainEmailPayment', {
      params: { id: pub.id, emailId: rejected.id },
    });
    expect(checked.code).toBe('pay_invoice_cancel');
    const again = await create(ann, pub.id, 'second-try');
    expect(again.status).toBe('unpaid');
  });

  it("GET user/domains/emails lists the member's addresses on every domain, public ones too, and nobody else's", async () => {
    const ann = await mailUser(ctx, 'Ann Everywhere');
    const bob = await mailUser(ctx, 'Bob Elsewhere');
    const pub = await publicDomain();
    const own = await verifiedDomain(ann);
    const office = await activeAddress(ann, own.id, 'office', true);
    const grant = await api(ann.browser, 'domainEmailAccess', {
      params: { id: own.id, emailId: office.id },
      body: {
        password: 'correct horse battery',
        password_confirm: 'correct horse battery',
      },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const onPublic = await create(ann, pub.id, `ann${seq++}`);
    const bobs = await create(bob, pub.id, `bob${seq++}`);

    const all = await api(ann.browser, 'allDomainEmails');
    expect(all.status).toBe(200);
    const emails = all.body.emails as DomainEmail[];
    expect(emails.map((e) => e.email)).toEqual([office.email, onPublic.email]);
    expect(emails[0]).toMatchObject({ domain_id: own.id, catch_all: true, password_access: true });
    expect(emails[1]).toMatchObject({
      domain_id: pub.id,
      status: 'unpaid',
      catch_all: false,
      password_access: false,
      paid: true,
      invoice: { id: onPublic.invoice!.id, status: 'unpaid' },
    });
    // The same rows as the domain's own list gives.
    const perDomain = await api(ann.browser, 'domainEmails', { params: { id: pub.id } });
    expect(perDomain.body.emails).toEqual([emails[1]]);
    const bobList = await api(bob.browser, 'allDomainEmails');
    expect((bobList.body.emails as DomainEmail[]).map((e) => e.email)).toEqual([bobs.email]);

    // A removed address leaves the list.
    const removed = await api(ann.browser, 'deleteDomainEmail', {
      params: { id: pub.id, emailId: onPublic.id },
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const after = await api(ann.browser, 'allDomainEmails');
    expect((after.body.emails as DomainEmail[]).map((e) => e.email)).toEqual([office.email]);
  });
});
