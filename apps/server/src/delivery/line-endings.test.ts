import { describe, expect, it } from 'vitest';
import { LineEndingCheck } from './line-endings.js';

/** Feeds `data` split at every possible point, as TCP may deliver it. */
function verdicts(data: string): Set<string | undefined> {
  const bytes = Buffer.from(data, 'latin1');
  const out = new Set<string | undefined>();
  for (let cut = 0; cut <= bytes.length; cut++) {
    const check = new LineEndingCheck();
    check.push(bytes.subarray(0, cut));
    check.push(bytes.subarray(cut));
    check.end();
    out.add(check.bare);
  }
  return out;
}

describe('LineEndingCheck', () => {
  it('accepts CRLF lines however the data is split', () => {
    expect(verdicts('Subject: a\r\n\r\nline\r\n\r\nend\r\n')).toEqual(new Set([undefined]));
  });

  it('finds a bare LF or a bare CR anywhere, also across a chunk boundary', () => {
    expect(verdicts('a\r\nb\nc\r\n')).toEqual(new Set(['LF']));
    expect(verdicts('a\r\nb\rc\r\n')).toEqual(new Set(['CR']));
    expect(verdicts('a\r\n.\r')).toEqual(new Set(['CR']));
    expect(verdicts('\nstart\r\n')).toEqual(new Set(['LF']));
  });
});
