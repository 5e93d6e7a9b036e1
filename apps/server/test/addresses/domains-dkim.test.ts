import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pino from 'pino';
import type { DKIMVerifyResult, DNSResolver } from 'mailauth';
import type { Domain, DomainDetailResponse } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { startTestDns } from '../_dns.js';
import { startJobs, startSink } from '../_sending.js';
import { freePort } from '../../../../test-support/ports.js';
import { runDomainUpkeep, type DomainUpkeepDeps } from '../../src/addresses/index.js';
import { AddressPolicy, openDnsResolver } from '../../src/core/net/index.js';
import { api } from '../_client.js';
import { queueOutgoing as queueMail } from '../../src/sending/outbox.js';

/**
 * The DKIM keys of own domains and the daily upkeep (issue 17): both signatures of outgoing mail verified by mailauth
 * against the test's DNS server, rotation (published first, promoted once seen, retired after the grace), and the
 * job that re-checks verified domains and expires unproven ones, telling the owner.
 */
const dns = await startTestDns();
const sink = await startSink({ port: await freePort() });
const ctx = await createTestApp({
  env: {
    DNS_SERVERS: dns.server,
    FREE_DOMAINS: '100',
    SMTP_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
    OUTBOX_POLL_MS: '50',
  },
});
const { db } = ctx;
const DAY = 86_400_000;

// mailauth's main entry loads its BIMI module, whose undici needs Node 22; the DKIM verifier alone runs on Node 20.
const { dkimVerify } = createRequire(import.meta.url)('mailauth/lib/dkim/verify.js') as {
  dkimVerify: (raw: Buffer, opts: { resolver: DNSResolver }) => Promise<DKIMVerifyResult>;
};

let seq = 0;
const fresh = (stem = 'dkim') => `${stem}${Date.now().toString(36)}${seq++}.test`;

async function verifiedDomain(user: MailUser, name = fresh()): Promise<DomainDetailResponse> {
  const domain = (await api(user.browser, 'createDomain', { body: { name } })).body.domain as Domain;
  dns.zone.set(domain.name, 'TXT', [domain.verification.txt_value]);
  const detail = (
    await api(user.browser, 'confirmDomain', { params: { id: domain.id }, body: { method: 'dns' } })
  ).body as DomainDetailResponse;
  expect(detail.domain.status).toBe('succeed');
  return detail;
}

function upkeepDeps(): DomainUpkeepDeps {
  const { config } = ctx;
  return {
    db,
    blobs: ctx.blobs,
    events: ctx.events,
    log: pino({ level: 'silent' }),
    wallet: ctx.wallet,
    invoicePurposes: ctx.invoicePurposes,
    mailDomain: config.mailDomain,
    mxHost: config.mxHost,
    domains: config.domains,
    resolver: openDnsResolver(config.dnsServers),
    outboundPolicy: new AddressPolicy(config.outboundAllowPrivate),
    dkimKeySecret: ctx.secrets.dkimKeySecret,
  };
}

async function inboxSubjects(user: MailUser): Promise<string[]> {
  const rows = await db
    .selectFrom('messages')
    .select('subject')
    .where('account_id', '=', user.accountId)
    .where('folder_id', '=', user.folders.inbox)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.subject);
}

async function domainRow(id: number) {
  return db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('mail from a verified own domain', () => {
  it('reaches the relay with an RSA and an Ed25519 signature, both verified against the DNS', async () => {
    const ann = await mailUser(ctx, 'Ann Signer');
    const { domain, dkim } = await verifiedDomain(ann, fresh('example-corp'));
    for (const key of dkim) dns.zone.set(key.dns_name, 'TXT', [key.dns_value]);
    // A message from an address on the domain, as the outbox holds it (the addresses' routes make the address).
    const raw = Buffer.from(
      `From: Sales <sales@${domain.name}>\r\nTo: bob@example.com\r\nSubject: Signed twice\r\n` +
        `Message-ID: <x${seq}@${domain.name}>\r\nDate: ${new Date().toUTCString()}\r\n\r\nHello from our domain.\r\n`,
    );
    const { hash, size } = await ctx.blobs.put(raw);
    await queueMail(db, [
      {
        account_id: ann.accountId,
        blob_hash: hash,
        size,
        message_id: null,
        envelope_from: `sales@${domain.name}`,
        recipient: 'bob@example.com',
        local: false,
      },
    ]);
    startJobs(ctx);
    const [message] = await sink.waitFor(1);
    const resolver: DNSResolver = (name, type) => dns.resolver.resolve(name, type) as never;
    const result = await dkimVerify(message!.raw, { resolver });
    expect(result.results.map((r) => [r.signingDomain, r.algo, r.selector, r.status.result]).sort()).toEqual(
      [
        [domain.name, 'ed25519-sha256', dkim[1]!.selector, 'pass'],
        [domain.name, 'rsa-sha256', dkim[0]!.selector, 'pass'],
      ].sort(),
    );

    // Against other keys in DNS both fail: the check is real.
    const other = await verifiedDomain(ann);
    for (const [i, key] of dkim.entries()) dns.zone.set(key.dns_name, 'TXT', [other.dkim[i]!.dns_value]);
    const failing = await dkimVerify(message!.raw, { resolver });
    expect(failing.results.map((r) => r.status.result)).toEqual(['fail', 'fail']);
  });
});

describe('DKIM rotation', () => {
  it('publishes the new pair first, promotes it once seen, retires the old for the grace, then removes it', async () => {
    const ann = await mailUser(ctx, 'Ann Rotates');
    const first = await verifiedDomain(ann);
    const id = first.domain.id;
    const rotated = (await api(ann.browser, 'rotateDomainDkim', { params: { id } }))
      .body as DomainDetailResponse;
    expect(rotated.dkim.map((k) => k.state)).toEqual(['active', 'active', 'next', 'next']);
    const next = rotated.dkim.filter((k) => k.state === 'next');
    expect(next.map((k) => k.selector)).not.toEqual(first.dkim.map((k) => k.selector));
    expect(new Set(rotated.dkim.map((k) => k.selector)).size).toBe(4);
    // Pressed again while one is under way: nothing new.
    const again = (await api(ann.browser, 'rotateDomainDkim', { params: { id } }))
      .body as DomainDetailResponse;
    expect(again.dkim.map((k) => k.selector)).toEqual(rotated.dkim.map((k) => k.selector));

    // Not published yet: the next keys wait.
    let checked = (await api(ann.browser, 'checkDomain', { params: { id } })).body as DomainDetailResponse;
    expect(checked.dkim.map((k) => k.state)).toEqual(['active', 'active', 'next', 'next']);

    for (const key of next) dns.zone.set(key.dns_name, 'TXT', [key.dns_value]);
    const before = Date.now();
    checked = (await api(ann.browser, 'checkDomain', { params: { id } })).body as DomainDetailResponse;
    expect(checked.dkim.map((k) => [k.selector, k.state])).toEqual([
      [first.dkim[0]!.selector, 'retiring'],
      [first.dkim[1]!.selector, 'retiring'],
      [next[0]!.selector, 'active'],
      [next[1]!.selector, 'active'],
    ]);
    const retireAt = Date.parse(checked.dkim[0]!.retire_at!);
    expect(retireAt).toBeGreaterThanOrEqual(before + 7 * DAY - 1000);
    expect(retireAt).toBeLessThanOrEqual(Date.now() + 7 * DAY);

    // Within the grace the old keys stay published; after it the daily job removes them.
    await runDomainUpkeep(upkeepDeps(), new Date(Date.now() + 6 * DAY));
    expect(
      (await db.selectFrom('domain_dkim_keys').select('id').where('domain_id', '=', id).execute()).length,
    ).toBe(4);
    await runDomainUpkeep(upkeepDeps(), new Date(Date.now() + 8 * DAY));
    const left = (await api(ann.browser, 'domain', { params: { id } })).body as DomainDetailResponse;
    expect(left.dkim.map((k) => [k.selector, k.state])).toEqual([
      [next[0]!.selector, 'active'],
      [next[1]!.selector, 'active'],
    ]);
  });
});

describe('the daily upkeep of domains', () => {
  it('fails a domain not proven 7 days after its confirm as expired, and tells the owner in their language', async () => {
    const ann = await mailUser(ctx, 'Ann Forgets');
    await sql`update accounts set settings = settings || '{"language":"ru"}'::jsonb where id = ${ann.accountId}`.execute(
      db,
    );
    const domain = (await api(ann.browser, 'createDomain', { body: { name: fresh('late') } })).body
      .domain as Domain;
    const never = (await api(ann.browser, 'createDomain', { body: { name: fresh('never') } })).body
      .domain as Domain;
    const confirmed = await api(ann.browser, 'confirmDomain', {
      params: { id: domain.id },
      body: { method: 'dns' },
    });
    expect(confirmed.body.domain.failure.reason).toBe('record_not_found');

    await runDomainUpkeep(upkeepDeps(), new Date(Date.now() + 6 * DAY));
    expect((await domainRow(domain.id)).failure_reason).toBe('record_not_found');
    await runDomainUpkeep(upkeepDeps(), new Date(Date.now() + 8 * DAY));
    const listed = (await api(ann.browser, 'domains')).body.domains as Domain[];
    expect(listed.find((d) => d.id === domain.id)).toMatchObject({
      status: 'failed',
      failure: { reason: 'expired', found: null },
    });
    // A domain never confirmed has not started its 7 days.
    expect(listed.find((d) => d.id === never.id)?.status).toBe('prepared');
    expect(await inboxSubjects(ann)).toEqual([`Домен ${domain.display_name} не подтверждён`]);
    // Told once: the next day's run says nothing more.
    await runDomainUpkeep(upkeepDeps(), new Date(Date.now() + 9 * DAY));
    expect(await inboxSubjects(ann)).toHaveLength(1);

    // Confirmed again, the 7 days start over.
    dns.zone.set(domain.name, 'TXT', [domain.verification.txt_value]);
    const retried = await api(ann.browser, 'confirmDomain', {
      params: { id: domain.id },
      body: { method: 'dns' },
    });
    expect(retried.body.domain).toMatchObject({ status: 'succeed', failure: null });
  });

  it('keeps a verified domain whose proof went missing for 7 days, then fails it and tells the owner', async () => {
    const bob = await mailUser(ctx, 'Bob Drifts');
    const { domain } = await verifiedDomain(bob);
    dns.zone.delete(domain.name, 'TXT');
    const now = Date.now();
    await runDomainUpkeep(upkeepDeps(), new Date(now));
    let row = await domainRow(domain.id);
    expect(row.status).toBe('succeed');
    expect(row.unverified_since?.getTime()).toBe(now);

    // Back within the week: forgiven.
    dns.zone.set(domain.name, 'TXT', [domain.verification.txt_value]);
    await runDomainUpkeep(upkeepDeps(), new Date(now + 2 * DAY));
    expect((await domainRow(domain.id)).unverified_since).toBeNull();

    dns.zone.delete(domain.name, 'TXT');
    await runDomainUpkeep(upkeepDeps(), new Date(now + 3 * DAY));
    await runDomainUpkeep(upkeepDeps(), new Date(now + 9 * DAY));
    expect((await domainRow(domain.id)).status).toBe('succeed');
    await runDomainUpkeep(upkeepDeps(), new Date(now + 10 * DAY));
    row = await domainRow(domain.id);
    expect(row).toMatchObject({ status: 'failed', failure_reason: 'record_not_found' });
    expect(await inboxSubjects(bob)).toEqual([`Domain ${domain.display_name} is no longer verified`]);
  });
});
