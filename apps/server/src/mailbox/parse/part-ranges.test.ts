import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { parseMessageUnbounded } from './parse-message.js';
import { decodePart } from './part-ranges.js';

const b64 = (data: Buffer) => data.toString('base64').replace(/(.{76})/g, '$1\r\n');
const pdf = Buffer.from('%PDF-1.4\n' + 'binary \u0000\u00ff data '.repeat(40), 'latin1');

/** Awkward but real shapes of mail: each attachment must come back from its range byte for byte. */
const messages: Record<string, string> = {
  'a base64 attachment in multipart/mixed': [
    'From: a@example.org\r\nSubject: mixed\r\nMIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b1"\r\n',
    '--b1\r\nContent-Type: text/plain\r\n\r\nHello\r\n--b1',
    'Content-Type: application/pdf; name="a.pdf"\r\nContent-Transfer-Encoding: base64',
    'Content-Disposition: attachment; filename="a.pdf"\r\n',
    b64(pdf),
    '--b1--\r\n',
  ].join('\r\n'),
  'bare LF line endings': [
    'From: a@example.org\nSubject: lf\nContent-Type: multipart/mixed; boundary=x\n',
    '--x\nContent-Type: text/plain\n\nbody\n--x',
    'Content-Type: text/csv\nContent-Disposition: attachment; filename=t.csv\n',
    'a,b\n1,2\n\n--x--\n',
  ].join('\n'),
  'a quoted-printable text attachment with soft breaks': [
    'From: a@example.org\r\nContent-Type: multipart/mixed; boundary=q\r\n',
    '--q\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--q',
    'Content-Type: text/plain; charset=windows-1251\r\nContent-Transfer-Encoding: quoted-printable',
    'Content-Disposition: attachment; filename=notes.txt\r\n',
    '=CF=F0=E8=E2=E5=F2 long line that goes on =\r\nand on=\r\n\r\nlast line=20\r\n--q--',
  ].join('\r\n'),
  'a message whose closing boundary never comes': [
    'From: a@example.org\r\nContent-Type: multipart/mixed; boundary=t\r\n',
    '--t\r\nContent-Type: text/plain\r\n\r\nhi\r\n--t',
    'Content-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n',
    b64(Buffer.from('\u0089PNG\r\n\u001a\nrest of an image', 'latin1')),
  ].join('\r\n'),
  'a cid image in multipart/related inside alternative inside mixed': [
    'From: a@example.org\r\nContent-Type: multipart/mixed; boundary=m\r\n',
    'preamble --m-not-a-boundary\r\n--m\r\nContent-Type: multipart/alternative; boundary=alt\r\n',
    '--alt\r\nContent-Type: text/plain\r\n\r\nplain\r\n--alt',
    'Content-Type: multipart/related; boundary=rel\r\n',
    '--rel\r\nContent-Type: text/html\r\n\r\n<img src="cid:logo@x">\r\n--rel',
    'Content-Type: image/gif\r\nContent-ID: <logo@x>\r\nContent-Transfer-Encoding: base64\r\n',
    b64(Buffer.from('GIF89a tiny', 'latin1')),
    '--rel--\r\n--alt--\r\n--m',
    'Content-Type: application/octet-stream; name=empty.bin\r\nContent-Disposition: attachment\r\n',
    '\r\n--m--\r\nepilogue\r\n',
  ].join('\r\n'),
  'an inline forwarded message with its own attachment': [
    'From: a@example.org\r\nContent-Type: multipart/mixed; boundary=f\r\n',
    '--f\r\nContent-Type: text/plain\r\n\r\nforwarding\r\n--f',
    'Content-Type: message/rfc822\r\nContent-Disposition: inline\r\n',
    'From: b@example.org\r\nSubject: inner\r\nContent-Type: multipart/mixed; boundary=inner\r\n',
    '--inner\r\nContent-Type: text/plain\r\n\r\ninner text\r\n--inner',
    'Content-Type: application/zip\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=z.zip\r\n',
    b64(Buffer.from('PK\u0003\u0004zip', 'latin1')),
    '--inner--\r\n--f--\r\n',
  ].join('\r\n'),
  'a base64-encoded forwarded message, kept whole': [
    'From: a@example.org\r\nContent-Type: multipart/mixed; boundary=e\r\n',
    '--e\r\nContent-Type: text/plain\r\n\r\nsee\r\n--e',
    'Content-Type: message/rfc822\r\nContent-Transfer-Encoding: base64\r\nContent-Disposition: attachment\r\n',
    b64(Buffer.from('From: c@example.org\r\nSubject: enc\r\n\r\ninner body\r\n')),
    '--e--\r\n',
  ].join('\r\n'),
  'an 8bit attachment with bare CRs and no line break before its boundary': [
    'From: a@example.org\r\nContent-Type: multipart/mixed; boundary=r\r\n',
    '--r\r\nContent-Type: text/plain\r\n\r\nx\r\n--r',
    'Content-Type: application/octet-stream\r\nContent-Transfer-Encoding: 8bit\r\nContent-Disposition: attachment; filename=r.bin\r\n',
    'one\rtwo\r\rthree\r\n--r--',
  ].join('\r\n'),
  'a whole message that is one PDF': [
    'From: a@example.org\r\nSubject: scan\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n',
    b64(pdf),
  ].join('\r\n'),
};

describe('attachments kept as ranges of the raw message', () => {
  for (const [name, text] of Object.entries(messages)) {
    it(`${name}: each range decodes to exactly what mailparser decodes`, async () => {
      const raw = Buffer.from(text, 'latin1');
      const [parsed, reference] = await Promise.all([parseMessageUnbounded(raw), simpleParser(raw)]);
      expect(parsed.attachments.map((a) => a.size)).toEqual(
        reference.attachments.map((a) => a.content.length),
      );
      expect(reference.attachments.length).toBeGreaterThan(0);
      for (const [i, attachment] of parsed.attachments.entries()) {
        const encoded = Readable.from([raw.subarray(attachment.part.start, attachment.part.end)]);
        const decoded = await buffer(decodePart(encoded, attachment.part.encoding));
        expect(decoded.equals(reference.attachments[i]!.content)).toBe(true);
      }
    });
  }
});
