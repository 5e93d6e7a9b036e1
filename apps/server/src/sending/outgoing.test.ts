import { describe, expect, it } from 'vitest';
import { isSafeHeaderText } from './outgoing.js';
import { crlf } from './compose-mime.js';
import { backoffMs } from './outbox.js';

describe('header text', () => {
  it('plain, Cyrillic and tabbed text is safe', () => {
    for (const value of ['Hello', 'Привет, мир', 'a\tb', '=?UTF-8?B?0J/RgNC40LLQtdGC?=', '']) {
      expect(isSafeHeaderText(value), value).toBe(true);
    }
  });

  it('line breaks, NUL and Unicode line separators are not, also inside encoded words', () => {
    for (const value of [
      'a\r\nb',
      'a\nb',
      'a\rb',
      'a\u0000b',
      'a\u2028b',
      'a\u0085b',
      '=?UTF-8?B?YQ0KYg==?=',
      '=?iso-8859-1?Q?a=0D=0Ab?=',
      'x =?utf-8?b?YQpi?= y',
    ]) {
      expect(isSafeHeaderText(value), JSON.stringify(value)).toBe(false);
    }
  });
});

describe('line endings of bodies', () => {
  it('every lone CR and LF becomes CRLF, existing CRLF stays', () => {
    expect(crlf('a\nb\rc\r\nd\n.\r\n')).toBe('a\r\nb\r\nc\r\nd\r\n.\r\n');
  });
});

describe('retry backoff', () => {
  it('doubles per attempt and stops growing at four hours', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(60_000, n))).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(backoffMs(60_000, 30)).toBe(4 * 3600_000);
  });
});
