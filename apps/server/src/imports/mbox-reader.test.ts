import { describe, expect, it } from 'vitest';
import { fromLineDate, readMbox } from './mbox-reader.js';
import type { ImportItem } from './import-item.js';

/** The file given in chunks of `size` bytes (a separator or a quoted line cut anywhere). */
async function read(text: string | Buffer, size = 7, max?: number): Promise<ImportItem[]> {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }
  const out: ImportItem[] = [];
  for await (const item of readMbox(chunks(), max)) out.push(item);
  return out;
}

const raw = (item: ImportItem | undefined) =>
  item?.kind === 'message'
    ? item.raw.toString('latin1')
    : `skipped: ${item?.kind === 'skipped' && item.reason}`;

describe('mbox reader', () => {
  it('splits at From lines after an empty line and keeps each message exactly, without the separator line', async () => {
    const items = await read(
      'From a@b Mon Jan  1 00:00:00 2001\nSubject: one\n\nbody one\n\n' +
        'From c@d Tue Jan  2 00:00:00 2001\nSubject: two\n\nbody two\nFrom inside a paragraph stays\n',
    );
    expect(items.map(raw)).toEqual([
      'Subject: one\n\nbody one\n',
      'Subject: two\n\nbody two\nFrom inside a paragraph stays\n',
    ]);
  });

  it('unquotes >From lines one level (mboxrd, which reads mboxo too) in every chunking', async () => {
    const file =
      'From a@b Mon Jan  1 00:00:00 2001\nSubject: q\n\n>From the start\n>>From deeper\n> From not quoted\n\n' +
      'From x@y Mon Jan  1 00:00:00 2001\nSubject: r\n\nend\n';
    for (const size of [1, 3, 7, 64, 4096])
      expect((await read(file, size)).map(raw)).toEqual([
        'Subject: q\n\nFrom the start\n>From deeper\n> From not quoted\n',
        'Subject: r\n\nend\n',
      ]);
  });

  it('takes a Content-Length body as it is, From lines and all (mboxcl2)', async () => {
    const body = 'line\n\nFrom this is body text\n>From kept quoted\n';
    const file =
      `From a@b Mon Jan  1 00:00:00 2001\nContent-Length: ${body.length}\nSubject: cl\n\n${body}\n` +
      'From c@d Mon Jan  1 00:00:00 2001\nSubject: next\n\nx\n';
    expect((await read(file, 5)).map(raw)).toEqual([
      `Content-Length: ${body.length}\nSubject: cl\n\n${body}`,
      'Subject: next\n\nx\n',
    ]);
  });

  it('keeps CRLF messages byte for byte', async () => {
    const items = await read(
      'From a@b Mon Jan  1 00:00:00 2001\r\nSubject: crlf\r\n\r\nbody\r\n\r\nFrom c@d x 1 00:00 2001\r\nSubject: 2\r\n\r\nb\r\n',
    );
    expect(items.map(raw)).toEqual(['Subject: crlf\r\n\r\nbody\r\n', 'Subject: 2\r\n\r\nb\r\n']);
  });

  it('skips a message without a header, one the file ends inside its header, and one over the limit', async () => {
    const big = 'x'.repeat(500);
    const items = await read(
      'From a@b Mon Jan  1 00:00:00 2001\nno header here at all\n\n' +
        `From a@b Mon Jan  1 00:00:00 2001\nSubject: big\n\n${big}\n\n` +
        'From a@b Mon Jan  1 00:00:00 2001\nSubject: fine\n\nok\n\n' +
        'From a@b Mon Jan  1 00:00:00 2001\nSubject: cut in the hea',
      11,
      200,
    );
    expect(items.map(raw)).toEqual([
      'skipped: no_headers',
      'skipped: too_large',
      'Subject: fine\n\nok\n',
      'skipped: truncated',
    ]);
    expect(items.map((i) => i.item)).toEqual([1, 2, 3, 4]);
  });

  it('stores a message the file ends inside its body, with the remark truncated', async () => {
    const [item] = await read('From a@b Mon Jan  1 00:00:00 2001\nSubject: cut\n\nthe body stops he');
    expect(item).toMatchObject({ kind: 'message', remark: 'truncated' });
    expect(raw(item)).toBe('Subject: cut\n\nthe body stops he');
  });

  it('never crashes on 8-bit garbage and reads the messages around it', async () => {
    const garbage = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37 + 11) % 256));
    const file = Buffer.concat([
      Buffer.from('From a@b Mon Jan  1 00:00:00 2001\nSubject: \xff\xfe\x80 bad\nX-\x01: \x00\n\n', 'latin1'),
      garbage,
      Buffer.from('\n\nFrom a@b Mon Jan  1 00:00:00 2001\nSubject: after\n\nok\n'),
    ]);
    const items = await read(file, 100);
    expect(items.at(-1)).toMatchObject({ kind: 'message' });
    expect(raw(items.at(-1))).toBe('Subject: after\n\nok\n');
  });

  it("reads the From line's date, asctime or Google Takeout's with a zone", () => {
    expect(fromLineDate('From a@b Mon Jan  1 10:20:30 2001')?.toISOString()).toBe('2001-01-01T10:20:30.000Z');
    expect(fromLineDate('From 1745@xxx Wed Apr 16 12:00:00 +0200 2025')?.toISOString()).toBe(
      '2025-04-16T10:00:00.000Z',
    );
    expect(fromLineDate('From someone')).toBeNull();
  });
});
