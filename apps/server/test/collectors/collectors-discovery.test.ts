import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot } from '../../../../test-support/dovecot.js';
import { freePort } from '../../../../test-support/ports.js';
import { findImap, imapServerInAutoconfig, type DiscoveryDeps } from '../../src/collectors/discovery.js';
import { AddressPolicy, openDnsResolver } from '../../src/core/net/index.js';
import { DomainError } from '../../src/core/errors.js';
import { startTestDns, type TestZone } from '../_dns.js';
import { startTestSite } from '../_site.js';

/**
 * find_imap's discovery (issue 18) against the test's own DNS server, a loopback web site for autoconfig documents and
 * a real Dovecot for the guesses' probe; only 127.0.0.1 is allowed by the address policy.
 */
let dovecot: Dovecot;
let zone: TestZone;
let site: Awaited<ReturnType<typeof startTestSite>>;
let deps: DiscoveryDeps;
let closedPort: number;

beforeAll(async () => {
  dovecot = await startDovecot({ users: [{ user: 'ivan', password: 'secret' }] });
  const dns = await startTestDns();
  zone = dns.zone;
  site = await startTestSite();
  closedPort = await freePort();
  deps = {
    dns: openDnsResolver([dns.server]),
    policy: new AddressPolicy(['127.0.0.1']),
    timeoutMs: 1500,
    autoconfigUrls: [
      `http://autoconfig.{domain}:${site.port}/mail/config-v1.1.xml?emailaddress={email}`,
      `http://{domain}:${site.port}/.well-known/autoconfig/mail/config-v1.1.xml?emailaddress={email}`,
    ],
    guessPorts: { tls: closedPort, plain: dovecot.port },
  };
}, 120_000);
afterAll(() => dovecot?.stop());

async function failure(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DomainError);
  return (err as DomainError).code;
}

const autoconfigXml = (servers: string) => `<?xml version="1.0" encoding="UTF-8"?>
<clientConfig version="1.1">
  <emailProvider id="example.test">
    <domain>example.test</domain>
    ${servers}
    <outgoingServer type="smtp"><hostname>smtp.example.test</hostname><port>465</port><socketType>SSL</socketType></outgoingServer>
  </emailProvider>
</clientConfig>`;

describe('find_imap discovery', () => {
  it('answers a big provider from the bundled table, with what it requires', async () => {
    expect(await findImap('ivan@gmail.com', deps)).toEqual({
      server: { host: 'imap.gmail.com', port: 993, security: 'tls' },
      source: 'provider',
      provider: { name: 'Gmail', requires: 'app_password', help_url: expect.stringMatching(/^https:\/\//) },
    });
    expect((await findImap('Ivan@Yandex.RU', deps)).provider?.name).toBe('Yandex');
    expect((await findImap('ivan@inbox.ru', deps)).provider?.name).toBe('Mail.ru');
    const outlook = await findImap('ivan@hotmail.com', deps);
    expect(outlook.provider).toMatchObject({ name: 'Outlook', requires: 'oauth' });
  });

  it("answers the provider hosting a domain by the domain's MX", async () => {
    zone.set('hosted.example.test', 'MX', ['10 aspmx.l.google.com', '20 alt1.aspmx.l.google.com']);
    const found = await findImap('ivan@hosted.example.test', deps);
    expect(found.source).toBe('provider');
    expect(found.provider?.name).toBe('Gmail');
    expect(found.server.host).toBe('imap.gmail.com');
  });

  it('answers the _imaps._tcp SRV record first, then _imap._tcp with STARTTLS', async () => {
    zone.set('_imaps._tcp.srv.example.test', 'SRV', [
      '20 0 9993 backup.srv.example.test',
      '10 5 993 imap.srv.example.test',
    ]);
    zone.set('_imap._tcp.srv.example.test', 'SRV', ['0 0 143 plain.srv.example.test']);
    expect(await findImap('ivan@srv.example.test', deps)).toEqual({
      server: { host: 'imap.srv.example.test', port: 993, security: 'tls' },
      source: 'srv',
      provider: null,
    });
    zone.set('_imap._tcp.srv2.example.test', 'SRV', ['0 0 1143 imap.srv2.example.test']);
    expect((await findImap('ivan@srv2.example.test', deps)).server).toEqual({
      host: 'imap.srv2.example.test',
      port: 1143,
      security: 'starttls',
    });
  });

  it("answers the domain's autoconfig document: autoconfig.<domain> first, then its .well-known", async () => {
    zone.set('autoconfig.ac.example.test', 'A', ['127.0.0.1']);
    site.serve('autoconfig.ac.example.test', (req, res) => {
      expect(req.url).toBe('/mail/config-v1.1.xml?emailaddress=ivan%40ac.example.test');
      res.writeHead(200, { 'content-type': 'text/xml' }).end(
        autoconfigXml(`
          <incomingServer type="pop3"><hostname>pop.%EMAILDOMAIN%</hostname><port>995</port><socketType>SSL</socketType></incomingServer>
          <incomingServer type="imap"><hostname>imap.%EMAILDOMAIN%</hostname><port>143</port><socketType>STARTTLS</socketType></incomingServer>
          <incomingServer type="imap"><hostname>secure.%EMAILDOMAIN%</hostname><port>993</port><socketType>SSL</socketType></incomingServer>`),
      );
    });
    expect(await findImap('ivan@ac.example.test', deps)).toEqual({
      server: { host: 'secure.ac.example.test', port: 993, security: 'tls' },
      source: 'autoconfig',
      provider: null,
    });

    zone.set('wk.example.test', 'A', ['127.0.0.1']);
    site.serve('wk.example.test', (req, res) => {
      if (!req.url?.startsWith('/.well-known/autoconfig/mail/config-v1.1.xml'))
        return res.writeHead(404).end();
      res
        .writeHead(200, { 'content-type': 'text/xml' })
        .end(
          autoconfigXml(
            '<incomingServer type="imap"><hostname>mx.wk.example.test</hostname><port>143</port><socketType>STARTTLS</socketType></incomingServer>',
          ),
        );
    });
    expect((await findImap('ivan@wk.example.test', deps)).server).toEqual({
      host: 'mx.wk.example.test',
      port: 143,
      security: 'starttls',
    });
  });

  it('reads only IMAP servers that make sense from an autoconfig document', () => {
    expect(imapServerInAutoconfig('<not xml', 'example.test', 'a@example.test')).toBeNull();
    expect(
      imapServerInAutoconfig(
        autoconfigXml(
          '<incomingServer type="imap"><hostname>bad host!</hostname><port>993</port><socketType>SSL</socketType></incomingServer>' +
            '<incomingServer type="imap"><hostname>imap.example.test</hostname><port>70000</port><socketType>SSL</socketType></incomingServer>',
        ),
        'example.test',
        'a@example.test',
      ),
    ).toBeNull();
  });

  it('guesses imap.<domain> and mail.<domain>, keeping the one a probe finds an IMAP server on', async () => {
    zone.set('mail.guess.example.test', 'A', ['127.0.0.1']);
    expect(await findImap('ivan@guess.example.test', deps)).toEqual({
      server: { host: 'mail.guess.example.test', port: dovecot.port, security: 'none' },
      source: 'guess',
      provider: null,
    });
  });

  it('does not guess a server on an address the policy does not permit', async () => {
    zone.set('imap.private.example.test', 'A', ['127.0.0.2']);
    zone.set('mail.private.example.test', 'A', ['127.0.0.1']);
    const strict = { ...deps, policy: new AddressPolicy([]) };
    expect(await failure(findImap('ivan@private.example.test', strict))).toBe('mail_server_not_found');
  });

  it('answers mail_server_not_found when nothing answers, and collector_invalid_email for a bad address', async () => {
    zone.set('imap.silent.example.test', 'A', ['127.0.0.1']);
    const noImap = { ...deps, guessPorts: { tls: closedPort, plain: closedPort } };
    expect(await failure(findImap('ivan@silent.example.test', noImap))).toBe('mail_server_not_found');
    expect(await failure(findImap('ivan@nothing.example.test', deps))).toBe('mail_server_not_found');
    for (const bad of ['ivan', 'ivan@', '@example.test', 'ivan@localhost', 'a b@example.test'])
      expect(await failure(findImap(bad, deps))).toBe('collector_invalid_email');
  });
});
