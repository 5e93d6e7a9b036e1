import { describe, expect, it } from 'vitest';
import type { Domain, DomainDetailResponse } from '@mailroom/protocol';
import { Browser, createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { startTestDns } from '../_dns.js';
import { startTestSite } from '../_site.js';
import { setPassportLevel } from '../../src/accounts/index.js';
import { api, apiCall, type RouteCall } from '../_client.js';

/**
 * Own domains over the API (issue 17): adding, verification by TXT record and by meta tag against a DNS server and a
 * web site of the test's own on loopback, the refusals of the image proxy's rules, duplicates across accounts,
 * another account's ids, the DNS health table and removal.
 */
const dns = await startTestDns();
const site = await startTestSite();
const ctx = await createTestApp({
  env: {
    DNS_SERVERS: dns.server,
    // The site of the tests is on 127.0.0.1; 127.0.0.2 and 127.0.0.3 stand for addresses inside the network.
    OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
    DOMAIN_SITE_URL: `http://{domain}:${site.port}/`,
    FREE_DOMAINS: '100',
    PUBLIC_DOMAINS: 'public-mail.test',
  },
});
const { db } = ctx;

let seq = 0;
const fresh = (stem = 'corp') => `${stem}${Date.now().toString(36)}${seq++}.test`;

async function add(user: MailUser, name: string): Promise<Domain> {
  const r = await api(user.browser, 'createDomain', { body: { name } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.domain as Domain;
}

async function confirm(
  user: MailUser,
  domain: Domain,
  method: 'dns' | 'meta',
): Promise<DomainDetailResponse> {
  const r = await api(user.browser, 'confirmDomain', { params: { id: domain.id }, body: { method } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as DomainDetailResponse;
}

const metaPage = (token: string) =>
  `<!doctype html><html><head><title>Corp</title>\n<META NAME="Mailroom-Verification" content="${token}"></head><body>hi</body></html>`;

describe('adding a domain', () => {
  it('takes a public DNS name, an IDN in punycode with its Unicode name, and refuses what is not one', async () => {
    const ann = await mailUser(ctx, 'Ann Owner');
    const plain = await add(ann, `  ${fresh().toUpperCase()}. `);
    expect(plain).toMatchObject({
      status: 'prepared',
      method: null,
      paid: false,
      invoice: null,
      emails_count: 0,
    });
    expect(plain.name).toBe(plain.name.toLowerCase());
    expect(plain.name).not.toMatch(/\.$/);
    expect(plain.verification).toEqual({
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      txt_name: plain.name,
      txt_value: `mailroom-verification=${plain.verification.token}`,
      meta_tag: `<meta name="mailroom-verification" content="${plain.verification.token}">`,
      url: `http://${plain.name}:${site.port}/`,
    });

    const idn = await add(ann, `пример${seq++}.рф`);
    expect(idn.name).toMatch(/^xn--[a-z0-9-]+\.xn--p1ai$/);
    expect(idn.display_name).toMatch(/^пример\d+\.рф$/);

    for (const name of [
      '127.0.0.1',
      '[::1]',
      'localhost',
      'no_underscores.test',
      '-lead.test',
      'a..b.test',
      'x.123',
    ])
      expect((await api(ann.browser, 'createDomain', { body: { name } })).code, name).toBe('invalid_domain');
    for (const name of ['mailroom.test', 'Sub.Mailroom.Test', 'public-mail.test'])
      expect((await api(ann.browser, 'createDomain', { body: { name } })).code, name).toBe('domain_hosted');

    const listed = await api(ann.browser, 'domains');
    expect(listed.body.domains.map((d: Domain) => d.id)).toEqual([plain.id, idn.id]);
    const pub = await api(ann.browser, 'publicDomains');
    expect(pub.body.domains).toEqual([{ id: expect.any(Number), name: 'public-mail.test' }]);
  });

  it('needs a passport of at least formal level', async () => {
    const ann = await mailUser(ctx, 'Ann Unverified');
    await setPassportLevel(db, ann.accountId, 'none');
    const r = await api(ann.browser, 'createDomain', { body: { name: fresh() } });
    expect(r.code).toBe('passport_level_required');
  });

  it('refuses a name this account holds or another account verified; an unverified claim blocks nobody', async () => {
    const ann = await mailUser(ctx, 'Ann Claimer');
    const bob = await mailUser(ctx, 'Bob Owner');
    const carol = await mailUser(ctx, 'Carol Late');
    const name = fresh('dup');
    const annClaim = await add(ann, name);
    expect((await api(ann.browser, 'createDomain', { body: { name } })).code).toBe('duplicate_domains');

    // Ann's claim does not keep the real owner out: Bob adds it and proves it.
    const bobs = await add(bob, name);
    expect(bobs.verification.token).not.toBe(annClaim.verification.token);
    dns.zone.set(name, 'TXT', [bobs.verification.txt_value]);
    expect((await confirm(bob, bobs, 'dns')).domain.status).toBe('succeed');

    // Now nobody else may add it, and Ann's claim cannot be proven with Bob's record.
    expect((await api(carol.browser, 'createDomain', { body: { name } })).code).toBe('duplicate_domains');
    const annConfirm = await confirm(ann, annClaim, 'dns');
    expect(annConfirm.domain.status).toBe('failed');
    expect(annConfirm.domain.failure).toEqual({ reason: 'wrong_token', found: bobs.verification.token });
  });
});

describe('verification by DNS TXT record', () => {
  it('succeeds with our record among others, makes the DKIM pair, and shows the DNS health', async () => {
    const ann = await mailUser(ctx, 'Ann Dns');
    const domain = await add(ann, fresh('example-corp'));
    dns.zone.set(domain.name, 'TXT', [
      'v=spf1 -all',
      ['mailroom-verif', `ication=${domain.verification.token}`],
    ]);
    const detail = await confirm(ann, domain, 'dns');
    expect(detail.domain).toMatchObject({ status: 'succeed', method: 'dns', failure: null });
    expect(detail.domain.verified_at).not.toBeNull();
    expect(detail.dkim.map((k) => [k.algorithm, k.state])).toEqual([
      ['rsa', 'active'],
      ['ed25519', 'active'],
    ]);
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(detail.dkim.map((k) => k.selector)).toEqual([`mr${today}r`, `mr${today}e`]);

    const byKind = (kind: string) => detail.dns.filter((c) => c.kind === kind);
    expect(byKind('verification')[0]).toMatchObject({ ok: true, type: 'TXT', name: domain.name });
    expect(byKind('mx')[0]).toMatchObject({ ok: false, expected: 'mx.mailroom.test', found: [] });
    expect(byKind('spf')[0]).toMatchObject({ ok: false, found: ['v=spf1 -all'] });
    expect(byKind('dkim').map((c) => c.ok)).toEqual([false, false]);
    expect(byKind('dmarc')[0]).toMatchObject({ ok: false, name: `_dmarc.${domain.name}` });

    // The owner publishes what the zone snippet says: every row turns ok.
    dns.zone.set(domain.name, 'MX', ['10 mx.mailroom.test']);
    // (its one SPF record in place of the old one: two would be a permanent error for receivers, RFC 7208 §4.5)
    dns.zone.set(domain.name, 'TXT', [
      ['mailroom-verif', `ication=${domain.verification.token}`],
      'v=spf1 mx include:_spf.mailroom.test ~all',
    ]);
    dns.zone.set(`_dmarc.${domain.name}`, 'TXT', ['v=DMARC1; p=none']);
    for (const key of detail.dkim) dns.zone.set(key.dns_name, 'TXT', [key.dns_value]);
    const healthy = (await api(ann.browser, 'domain', { params: { id: domain.id } }))
      .body as DomainDetailResponse;
    expect(healthy.dns.map((c) => [c.kind, c.ok])).toEqual([
      ['verification', true],
      ['mx', true],
      ['spf', true],
      ['dkim', true],
      ['dkim', true],
      ['dmarc', true],
    ]);
    expect(healthy.zone).toContain(`${domain.name}. 3600 IN MX 10 mx.mailroom.test.`);
    expect(healthy.zone).toContain(`"mailroom-verification=${domain.verification.token}"`);
    expect(healthy.zone).toContain(`_dmarc.${domain.name}. 3600 IN TXT "v=DMARC1; p=none"`);
  });

  it('a present SPF record without the service differs from the expected one, and the record to publish keeps its senders', async () => {
    const ann = await mailUser(ctx, 'Ann Spf');
    const domain = await add(ann, fresh());
    dns.zone.set(domain.name, 'TXT', [
      domain.verification.txt_value,
      'v=spf1 a include:_spf.other.test -all',
    ]);
    const spfOf = (d: DomainDetailResponse) => d.dns.find((c) => c.kind === 'spf')!;
    let spf = spfOf(await confirm(ann, domain, 'dns'));
    expect(spf).toMatchObject({
      ok: false,
      found: ['v=spf1 a include:_spf.other.test -all'],
      suggested: 'v=spf1 a include:_spf.other.test include:_spf.mailroom.test -all',
    });

    // Two SPF records are a permanent error for receivers (RFC 7208 §3.2), even when one names the service: one merged.
    dns.zone.add(domain.name, 'TXT', 'v=spf1 mx include:_spf.mailroom.test ~all');
    spf = spfOf(
      (await api(ann.browser, 'domain', { params: { id: domain.id } })).body as DomainDetailResponse,
    );
    expect(spf).toMatchObject({
      ok: false,
      suggested: 'v=spf1 a include:_spf.other.test mx include:_spf.mailroom.test -all',
    });

    // The record as suggested is healthy, and nothing more is suggested.
    dns.zone.set(domain.name, 'TXT', [domain.verification.txt_value, spf.suggested!]);
    spf = spfOf(
      (await api(ann.browser, 'domain', { params: { id: domain.id } })).body as DomainDetailResponse,
    );
    expect(spf.ok).toBe(true);
    expect(spf.suggested).toBeUndefined();
  });

  it('shows the DKIM TXT values split into strings of at most 255 characters', async () => {
    const ann = await mailUser(ctx, 'Ann Split');
    const domain = await add(ann, fresh());
    dns.zone.set(domain.name, 'TXT', [domain.verification.txt_value]);
    const { dkim, zone } = await confirm(ann, domain, 'dns');
    const rsa = dkim.find((k) => k.algorithm === 'rsa')!;
    const ed = dkim.find((k) => k.algorithm === 'ed25519')!;
    expect(rsa.dns_value.length).toBeGreaterThan(1);
    for (const part of rsa.dns_value) expect(part.length).toBeLessThanOrEqual(255);
    expect(rsa.dns_value.slice(0, -1).every((p) => p.length === 255)).toBe(true);
    expect(rsa.dns_value.join('')).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]{300,}=*$/);
    // Ed25519's p= is the bare 32-byte key (RFC 8463): one short string.
    expect(ed.dns_value).toHaveLength(1);
    expect(ed.dns_value[0]).toMatch(/^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
    expect(rsa.dns_name).toBe(`${rsa.selector}._domainkey.${domain.name}`);
    expect(zone).toContain(`${rsa.dns_name}. 3600 IN TXT ( "${rsa.dns_value[0]}" "${rsa.dns_value[1]}"`);
  });

  it('fails with record_not_found without our record, wrong_token with another token, dns_error when DNS fails', async () => {
    const ann = await mailUser(ctx, 'Ann Fails');
    const domain = await add(ann, fresh());
    dns.zone.set(domain.name, 'TXT', ['v=spf1 -all']);
    let detail = await confirm(ann, domain, 'dns');
    expect(detail.domain).toMatchObject({
      status: 'failed',
      failure: { reason: 'record_not_found', found: null },
    });
    expect(detail.dkim).toEqual([]);

    dns.zone.set(domain.name, 'TXT', ['mailroom-verification=0123456789abcdef']);
    detail = (await api(ann.browser, 'checkDomain', { params: { id: domain.id } })).body;
    expect(detail.domain.failure).toEqual({ reason: 'wrong_token', found: '0123456789abcdef' });

    const broken = await add(ann, fresh('broken'));
    dns.zone.fail(broken.name);
    detail = await confirm(ann, broken, 'dns');
    expect(detail.domain.failure?.reason).toBe('dns_error');

    // Published at last: the check passes.
    dns.zone.set(domain.name, 'TXT', [domain.verification.txt_value]);
    detail = (await api(ann.browser, 'checkDomain', { params: { id: domain.id } })).body;
    expect(detail.domain).toMatchObject({ status: 'succeed', failure: null });
  });
});

describe('verification by meta tag', () => {
  it('fetches the site where the DNS says it is, by its name, and finds the tag in the HTML', async () => {
    const ann = await mailUser(ctx, 'Ann Meta');
    const domain = await add(ann, fresh('meta-corp'));
    dns.zone.set(domain.name, 'A', ['127.0.0.1']);
    site.page(domain.name, metaPage(domain.verification.token));
    const detail = await confirm(ann, domain, 'meta');
    expect(detail.domain).toMatchObject({ status: 'succeed', method: 'meta', failure: null });
    expect(site.seen.find((s) => s.host === domain.name)).toMatchObject({
      path: '/',
      userAgent: 'Mailroom-Domain-Verification/1',
    });
    expect(detail.dns[0]).toMatchObject({
      kind: 'verification',
      ok: true,
      expected: domain.verification.meta_tag,
    });
  });

  it('tells no tag, another token, and a tag only in the text apart', async () => {
    const ann = await mailUser(ctx, 'Ann Meta Fails');
    const domain = await add(ann, fresh());
    dns.zone.set(domain.name, 'A', ['127.0.0.1']);
    site.page(
      domain.name,
      `<p>&lt;meta name="mailroom-verification" content="${domain.verification.token}"&gt;</p>`,
    );
    expect((await confirm(ann, domain, 'meta')).domain.failure).toEqual({
      reason: 'record_not_found',
      found: null,
    });
    site.page(domain.name, metaPage('not-the-token'));
    expect((await confirm(ann, domain, 'meta')).domain.failure).toEqual({
      reason: 'wrong_token',
      found: 'not-the-token',
    });
    site.serve(domain.name, (_req, res) => res.writeHead(500).end());
    expect((await confirm(ann, domain, 'meta')).domain.failure).toEqual({
      reason: 'site_unreachable',
      found: 'HTTP 500',
    });
  });

  it('refuses a site on an address inside the network, and a redirect there', async () => {
    const ann = await mailUser(ctx, 'Ann Inside');
    const inside = await add(ann, fresh('inside'));
    dns.zone.set(inside.name, 'A', ['127.0.0.2']);
    const refused = await confirm(ann, inside, 'meta');
    expect(refused.domain.failure?.reason).toBe('site_forbidden');
    expect(refused.domain.failure?.found).toContain('127.0.0.2');

    // A public-looking site (allowed here) that redirects to a name inside: every hop is checked.
    const hop = await add(ann, fresh('hop'));
    const target = fresh('intranet');
    dns.zone.set(hop.name, 'A', ['127.0.0.1']);
    dns.zone.set(target, 'A', ['127.0.0.3']);
    site.serve(hop.name, (_req, res) =>
      res.writeHead(302, { location: `http://${target}:${site.port}/` }).end(),
    );
    site.page(target, metaPage(hop.verification.token));
    const redirected = await confirm(ann, hop, 'meta');
    expect(redirected.domain.failure?.reason).toBe('site_forbidden');
    expect(site.seen.some((s) => s.host === target)).toBe(false);

    // A literal loopback address in the redirect is refused the same way.
    site.serve(hop.name, (_req, res) =>
      res.writeHead(301, { location: `http://127.0.0.4:${site.port}/` }).end(),
    );
    expect((await confirm(ann, hop, 'meta')).domain.failure?.reason).toBe('site_forbidden');

    // More than 3 redirects: unreachable.
    site.serve(hop.name, (req, res) => res.writeHead(302, { location: `${req.url}x` }).end());
    expect((await confirm(ann, hop, 'meta')).domain.failure).toEqual({
      reason: 'site_unreachable',
      found: 'more than 3 redirects',
    });
  });

  it('gives up on a site that does not answer within 5 seconds', { timeout: 30_000 }, async () => {
    const ann = await mailUser(ctx, 'Ann Slow');
    const domain = await add(ann, fresh('slow'));
    dns.zone.set(domain.name, 'A', ['127.0.0.1']);
    site.serve(domain.name, () => {
      // Never answers.
    });
    const started = Date.now();
    const detail = await confirm(ann, domain, 'meta');
    expect(detail.domain.failure).toEqual({ reason: 'site_unreachable', found: 'no answer within 5000 ms' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(Date.now() - started).toBeLessThan(9000);
  });
});

describe("another account's domain", () => {
  it('is entity_not_found on every route, and unchanged', async () => {
    const ann = await mailUser(ctx, 'Ann Prying');
    const bob = await mailUser(ctx, 'Bob Private');
    const bobs = await add(bob, fresh('private'));
    dns.zone.set(bobs.name, 'TXT', [bobs.verification.txt_value]);
    await confirm(bob, bobs, 'dns');
    const id = bobs.id;
    const attempts: RouteCall[] = [
      ['domain', { params: { id } }],
      ['confirmDomain', { params: { id }, body: { method: 'dns' } }],
      ['checkDomain', { params: { id } }],
      ['checkDomainPayment', { params: { id } }],
      ['rotateDomainDkim', { params: { id } }],
      ['deleteDomain', { params: { id }, query: { confirm: 'delete' } }],
    ];
    for (const call of attempts) {
      const r = await apiCall(ann.browser, call);
      expect([r.status, r.code], call[0]).toEqual([404, 'entity_not_found']);
    }
    expect((await api(ann.browser, 'domains')).body.domains).toEqual([]);
    const still = (await api(bob.browser, 'domain', { params: { id } })).body as DomainDetailResponse;
    expect(still.domain.status).toBe('succeed');
    expect(still.dkim.map((k) => k.state)).toEqual(['active', 'active']);
  });
});

describe('removing a domain', () => {
  it('needs the word delete; then the domain, its addresses, their delegations and password access go together', async () => {
    const ann = await mailUser(ctx, 'Ann Remover');
    const bob = await mailUser(ctx, 'Bob Delegate');
    const domain = await add(ann, fresh('gone'));
    dns.zone.set(domain.name, 'TXT', [domain.verification.txt_value]);
    await confirm(ann, domain, 'dns');
    // An address on the domain, with password access and a delegate, as the addresses' routes make them.
    const address = await db
      .insertInto('aliases')
      .values({
        account_id: ann.accountId,
        email: `sales@${domain.name}`,
        kind: 'domain',
        status: 'succeed',
        domain_id: domain.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('password_accesses')
      .values({ email: `sales@${domain.name}`, account_id: ann.accountId, password_hash: 'x' })
      .execute();
    await db
      .insertInto('delegations')
      .values({ alias_id: address.id, delegate_account_id: bob.accountId })
      .execute();
    expect((await api(ann.browser, 'domains')).body.domains[0].emails_count).toBe(1);

    for (const query of [{}, { confirm: '' }, { confirm: 'yes' }])
      expect((await api(ann.browser, 'deleteDomain', { params: { id: domain.id }, query })).code).toBe(
        'delete_word_required',
      );
    const removed = await api(ann.browser, 'deleteDomain', {
      params: { id: domain.id },
      query: { confirm: 'delete' },
    });
    expect(removed.body).toEqual({ ok: true });

    expect((await api(ann.browser, 'domains')).body.domains).toEqual([]);
    expect((await api(ann.browser, 'domain', { params: { id: domain.id } })).code).toBe('entity_not_found');
    const row = await db
      .selectFrom('aliases')
      .select('deleted_at')
      .where('id', '=', address.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(
      await db.selectFrom('delegations').selectAll().where('alias_id', '=', address.id).execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('password_accesses')
        .selectAll()
        .where('email', '=', `sales@${domain.name}`)
        .execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('domain_dkim_keys').selectAll().where('domain_id', '=', domain.id).execute(),
    ).toEqual([]);

    // The name is free again, for this account too.
    expect((await add(ann, domain.name)).status).toBe('prepared');
  });
});

describe('sessions that are not the owner', () => {
  it('cannot reach the domains (forbidden to anonymous and to impersonation alike)', async () => {
    const anonymous = new Browser(ctx.app);
    const r = await api(anonymous, 'domains');
    expect(r.status).toBe(401);
  });
});
