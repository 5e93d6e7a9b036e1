import { describe, expect, it } from 'vitest';
import { MboxrdQuoter, mboxFromLine } from './mbox.js';

function quote(chunks: Buffer[]): string {
  const quoter = new MboxrdQuoter();
  const out = chunks.map((c) => quoter.push(c));
  return Buffer.concat([...out, quoter.end()]).toString('latin1');
}

const message =
  'From: a@b\r\n\r\nFrom the start\r\n>From once\r\n>>From twice\r\nFro\r\n>Fr\r\nnot From here\r\nFrom';
const quoted =
  'From: a@b\r\n\r\n>From the start\r\n>>From once\r\n>>>From twice\r\nFro\r\n>Fr\r\nnot From here\r\nFrom\n\n';

describe('mboxrd quoting', () => {
  it('adds one > to every line that starts with >*From , and to no other', () => {
    expect(quote([Buffer.from(message)])).toBe(quoted);
  });

  it('gives the same bytes wherever the chunks are cut', () => {
    const bytes = Buffer.from(message);
    for (let cut = 0; cut <= bytes.length; cut++)
      expect(quote([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(quoted);
    expect(quote([...bytes].map((b) => Buffer.from([b])))).toBe(quoted);
  });

  it('ends a message with an empty line, adding the line end it lacked', () => {
    expect(quote([Buffer.from('a\r\n')])).toBe('a\r\n\n');
    expect(quote([Buffer.from('a')])).toBe('a\n\n');
  });

  it('writes the From line with the sender and the UTC date in asctime form', () => {
    expect(mboxFromLine('a b@x.org', new Date('2026-03-05T07:08:09Z')).toString()).toBe(
      'From ab@x.org Thu Mar  5 07:08:09 2026\n',
    );
    expect(mboxFromLine('', new Date('2026-11-29T17:00:00Z')).toString()).toBe(
      'From MAILER-DAEMON Sun Nov 29 17:00:00 2026\n',
    );
  });
});
