import { describe, expect, it } from 'vitest';
import {
  dkimPublicKeyIn,
  dkimSelector,
  isServiceDomain,
  parseDomainName,
  spfIncludes,
  splitTxt,
} from './domain-names.js';
import { metaTokensIn, verificationTokensIn } from './domain-proof.js';

describe('domain names', () => {
  it('keeps a DNS name in ASCII and in the form people read', () => {
    expect(parseDomainName(' Example-Corp.COM. ')).toEqual({
      name: 'example-corp.com',
      displayName: 'example-corp.com',
    });
    expect(parseDomainName('Пример.РФ')).toEqual({ name: 'xn--e1afmkfd.xn--p1ai', displayName: 'пример.рф' });
    expect(parseDomainName('münchen.de')?.name).toBe('xn--mnchen-3ya.de');
  });

  it('refuses IP addresses, single labels, numeric top labels and bad labels', () => {
    for (const bad of [
      '10.1.2.3',
      '::1',
      '[::1]',
      'localhost',
      'a.1',
      'a_b.com',
      'a-.com',
      '',
      '.',
      `${'a'.repeat(64)}.com`,
    ])
      expect(parseDomainName(bad), bad).toBeUndefined();
  });

  it("tells the service's own names", () => {
    expect(isServiceDomain('mailroom.test', 'mailroom.test', [])).toBe(true);
    expect(isServiceDomain('eu.mailroom.test', 'mailroom.test', [])).toBe(true);
    expect(isServiceDomain('notmailroom.test', 'mailroom.test', [])).toBe(false);
    expect(isServiceDomain('pub.test', 'mailroom.test', ['pub.test'])).toBe(true);
  });

  it('splits TXT values into strings of at most 255 characters that join back', () => {
    const value = 'x'.repeat(600);
    expect(splitTxt(value).map((s) => s.length)).toEqual([255, 255, 90]);
    expect(splitTxt(value).join('')).toBe(value);
    expect(splitTxt('short')).toEqual(['short']);
  });

  it('dates selectors and keeps them unique', () => {
    const day = new Date('2026-11-24T23:00:00Z');
    expect(dkimSelector(day, 'rsa', new Set())).toBe('mr20261124r');
    expect(dkimSelector(day, 'ed25519', new Set(['mr20261124e', 'mr20261124e2']))).toBe('mr20261124e3');
  });

  it('reads SPF includes and DKIM keys as DNS panels write them', () => {
    expect(spfIncludes('v=spf1 mx include:_spf.mailroom.test ~all', '_spf.mailroom.test')).toBe(true);
    expect(spfIncludes('v=spf1 +include:_SPF.mailroom.test -all', '_spf.mailroom.test')).toBe(true);
    expect(spfIncludes('v=spf1 -include:_spf.mailroom.test', '_spf.mailroom.test')).toBe(false);
    expect(spfIncludes('include:_spf.mailroom.test', '_spf.mailroom.test')).toBe(false);
    expect(dkimPublicKeyIn('v=DKIM1; k=rsa; p=AB CD\tEF')).toBe('ABCDEF');
    expect(dkimPublicKeyIn('v=DKIM1; k=rsa')).toBeUndefined();
  });
});

describe('verification tokens', () => {
  it('finds ours among TXT records', () => {
    expect(
      verificationTokensIn(['v=spf1 -all', 'Mailroom-Verification=abc', 'google-site-verification=x']),
    ).toEqual(['abc']);
  });

  it('finds the meta tag by parsing the HTML, whatever the case and quoting, not in text or comments', () => {
    const html = `<html><head><!-- <meta name="mailroom-verification" content="in-comment"> -->
      <META content='t1' NAME=mailroom-verification><meta name="other" content="x"></head>
      <body><p>&lt;meta name="mailroom-verification" content="in-text"&gt;</p>
      <script>var s = '<meta name="mailroom-verification" content="in-script">';</script>
      <meta name="mailroom-verification" content=" t&amp;2 "></body></html>`;
    expect(metaTokensIn(html)).toEqual(['t1', 't&2']);
  });
});
