import { describe, expect, it } from 'vitest';
import { impostorOf, senderTrust, skeleton } from './sender-trust.js';
import type { MessageVerdict } from '../mailbox/index.js';

const guarded = ['mailroom.test', 'wallet-provider.example'];
const from = (email: string, name = '') => ({ email, name });

describe('impostors of protected domains', () => {
  it.each([
    ['support@mai1room.test', 'digit one for l'],
    ['support@mailr0om.test', 'digit zero for o'],
    ['support@rnailroom.test', 'rn for m'],
    ['support@mаilroom.test', 'Cyrillic а (IDN homograph)'],
    ['support@xn--milroom-2fg.test', 'the same homograph in its A-label'],
    ['support@wallet-provlder.example', 'l for i'],
    ['support@mailroom.test.evil.example', 'the domain worn as first labels'],
  ])('%s is a look-alike (%s)', (email) => {
    expect(impostorOf(from(email), true, guarded)?.reason).toBe('lookalike_domain');
  });

  it('the protected domain itself is ours only when it proved itself', () => {
    expect(impostorOf(from('support@wallet-provider.example'), true, guarded)).toBeNull();
    expect(impostorOf(from('support@wallet-provider.example'), false, guarded)).toEqual({
      imitates: 'wallet-provider.example',
      reason: 'own_domain',
    });
    expect(impostorOf(from('x@news.mailroom.test'), false, guarded)?.reason).toBe('own_domain');
  });

  it('a display name that names a protected domain the sender is not under is flagged', () => {
    expect(impostorOf(from('a@evil.example', 'Support wallet-provider.example'), true, guarded)).toEqual({
      imitates: 'wallet-provider.example',
      reason: 'display_name',
    });
    expect(impostorOf(from('a@evil.example', 'support@mai1room.test'), true, guarded)?.reason).toBe(
      'display_name',
    );
  });

  it('ordinary senders are not flagged', () => {
    for (const email of ['ann@example.org', 'news@mailroomy.example', 'x@wallet.example', 'a@room.test'])
      expect(impostorOf(from(email, 'Ann'), true, guarded)).toBeNull();
  });

  it('skeletons fold look-alike letters', () => {
    expect(skeleton('PAYPA1.COM')).toBe(skeleton('paypal.com'));
    expect(skeleton('vvallet.example')).toBe(skeleton('wallet.example'));
  });
});

describe('sender trust', () => {
  const passing: MessageVerdict = {
    auth: {
      fromDomain: 'shop.example',
      spf: { result: 'pass', domain: 'shop.example' },
      dkim: [{ domain: 'shop.example', selector: 's', result: 'pass', aligned: true }],
      dmarc: { result: 'pass', policy: 'none', domain: 'shop.example' },
      arc: { result: 'none', sealer: '', trusted: false },
    },
  };
  it('verified, unverified and unknown', () => {
    expect(senderTrust(passing, from('a@shop.example'), undefined, guarded).status).toBe('verified');
    const failing = {
      auth: {
        ...passing.auth!,
        dmarc: { result: 'fail' as const, policy: 'none' as const, domain: 'shop.example' },
        dkim: [],
        spf: { result: 'fail' as const, domain: 'shop.example' },
      },
    };
    expect(senderTrust(failing, from('a@shop.example'), undefined, guarded).status).toBe('unverified');
    expect(senderTrust(null, from('a@shop.example'), undefined, guarded).status).toBe('unknown');
  });
  it('says where a reply goes when it is not the sender', () => {
    expect(
      senderTrust(passing, from('a@shop.example'), from('collect@elsewhere.example'), guarded).reply_to,
    ).toBe('collect@elsewhere.example');
    expect(senderTrust(passing, from('a@shop.example'), from('A@shop.example'), guarded).reply_to).toBeNull();
  });
});
