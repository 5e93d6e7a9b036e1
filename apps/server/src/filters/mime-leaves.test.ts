import * as libqp from 'libqp';
import { describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, mimeLeaves, splitMultipart } from './mime-leaves.js';

const crlf = (text: string) => Buffer.from(text.replace(/\n/g, '\r\n'));
const leaves = (raw: Buffer) => mimeLeaves(raw).map((p) => [p.contentType, p.text]);

// Each expectation below was checked against Dovecot Pigeonhole's sieve-test (body :content / :text) on the same
// bytes; the differential test (packages/sieve/diff, message 'mime-edges') keeps checking them.
describe('the leaf parts of a message for a Sieve body test', () => {
  it('reads each leaf of a multipart, transfer-decoded, in its charset', () => {
    const raw = Buffer.concat([
      crlf(
        'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain; charset=windows-1251\n',
      ),
      crlf('Content-Transfer-Encoding: quoted-printable\n\n=CF=F0=E8=E2=E5=F2 =\nworld\n--b\n'),
      crlf('Content-Type: application/pdf\nContent-Transfer-Encoding: base64\n\nJVBERi0x\n--b--\n'),
    ]);
    expect(leaves(raw)).toEqual([
      ['text/plain', 'Привет world'],
      ['application/pdf', '%PDF-1'],
    ]);
  });

  it('ends an unclosed inner multipart where its parent’s delimiter begins', () => {
    const raw = crlf(
      'Content-Type: multipart/mixed; boundary=o\n\n--o\nContent-Type: multipart/alternative; boundary=i\n\n' +
        '--i\n\ninner1\n--o\n\nouter2\n--o--\n',
    );
    expect(leaves(raw)).toEqual([
      ['text/plain', 'inner1'],
      ['text/plain', 'outer2'],
    ]);
  });

  it('takes a delimiter with white space after it, and ignores preamble, epilogue and what follows the close', () => {
    const raw = crlf(
      'Content-Type: multipart/mixed; boundary="x"\n\npre\n--x  \n\none\n--x-- \nepilogue\n--x\n\nlate\n',
    );
    expect(leaves(raw)).toEqual([['text/plain', 'one']]);
  });

  it('does not take a longer boundary, or one that does not start its line, for the delimiter', () => {
    const raw = crlf('Content-Type: multipart/mixed; boundary=ab\n\n--abc\n\nx --ab\n--ab\n\nreal\n--ab--\n');
    expect(leaves(raw)).toEqual([['text/plain', 'real']]);
  });

  it('reads the parts of a digest as embedded messages, without their header', () => {
    const raw = crlf(
      'Content-Type: multipart/digest; boundary=d\n\n--d\n\nSubject: a\n\nembedded body\n--d--\n',
    );
    expect(leaves(raw)).toEqual([['text/plain', 'embedded body']]);
  });

  it('enters an embedded message, and matches one nested too deep as text', () => {
    expect(
      leaves(crlf('Content-Type: message/rfc822\n\nSubject: in\nContent-Type: text/html\n\n<p>hi</p>\n')),
    ).toEqual([['text/html', '<p>hi</p>\r\n']]);
    let deep = 'body\r\n';
    for (let i = 0; i < 12; i++) deep = `Content-Type: message/rfc822\r\n\r\n${deep}`;
    const [only] = mimeLeaves(Buffer.from(deep));
    expect(only!.contentType).toBe('message/rfc822');
    expect(only!.text.endsWith('body\r\n')).toBe(true);
  });

  it('has no part between two delimiters with nothing between them, but an empty part after a blank line', () => {
    expect(leaves(crlf('Content-Type: multipart/mixed; boundary=q\n\n--q\n--q--\n'))).toEqual([]);
    expect(leaves(crlf('Content-Type: multipart/mixed; boundary=q\n\n--q\n\n\n--q--\n'))).toEqual([
      ['text/plain', ''],
    ]);
  });

  it('reads a multipart without a boundary as one part of that type', () => {
    expect(leaves(crlf('Content-Type: multipart/mixed\n\n--x\n\nbody\n'))).toEqual([
      ['multipart/mixed', '--x\r\n\r\nbody\r\n'],
    ]);
  });

  it('reads a boundary given in RFC 2231 continuations, and LF-only line ends', () => {
    const raw = crlf(
      'Content-Type: multipart/mixed;\n boundary*0="p1";\n boundary*1="p2"\n\n--p1p2\n\nx\n--p1p2--\n',
    );
    expect(leaves(raw)).toEqual([['text/plain', 'x']]);
    const lf = Buffer.from(
      'Content-Type: multipart/mixed; boundary=z\n\n--z\nContent-Type: text/plain\n\nlf body\n--z--\n',
    );
    expect(leaves(lf)).toEqual([['text/plain', 'lf body']]);
  });

  it('decodes a part only when its text is read', () => {
    const raw = crlf(
      'Content-Type: multipart/mixed; boundary=b\n\n--b\n\ntext\n--b\nContent-Type: application/octet-stream\n' +
        'Content-Transfer-Encoding: base64\n\nAAAA\n--b--\n',
    );
    const parts = mimeLeaves(raw);
    const descriptor = Object.getOwnPropertyDescriptor(parts[1], 'text');
    expect(descriptor?.get).toBeTypeOf('function');
    expect(parts[1]!.text).toBe('\u0000\u0000\u0000');
  });

  it('splits a multipart body at its delimiters only', () => {
    const parts = splitMultipart(crlf('--b\nA\n--bb\n--b\nB\n--b--\nC'), 'b').map(String);
    expect(parts).toEqual(['A\r\n--bb', 'B']);
  });
});

describe('quoted-printable decoding', () => {
  it('decodes as libqp does, on text and on random bytes made of its special characters', () => {
    const samples = [
      '=D0=9F=D1=80=D0=B8=D0=B2=D0=B5=D1=82 =\r\nworld  \r\nnext\t\r\n=3D=3d',
      'soft=\nbreak= \r\nwith space, lower =e9 and a bare = sign, =ZZ, =4',
      'trailing =',
      // An escape across a soft break (joined first), and a '=' before an escape.
      '=4=\r\n1 =4=\n1 ==41 =\r=41',
    ].map((s) => Buffer.from(s, 'latin1'));
    // A fixed pseudo-random sequence, so a failure reproduces.
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const alphabet = Buffer.from(' \t=\r\nA0fgZ\u00e9', 'latin1');
    for (let i = 0; i < 5000; i++) {
      const bytes = Buffer.alloc(Math.floor(next() * 40));
      for (let j = 0; j < bytes.length; j++) bytes[j] = alphabet[Math.floor(next() * alphabet.length)]!;
      samples.push(bytes);
    }
    for (const sample of samples)
      expect(decodeQuotedPrintable(sample).toString('hex')).toBe(libqp.decode(sample).toString('hex'));
  });
});
