import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeQuotedPrintable, vcardTexts } from './vcard-prepass.js';

const crlf = (...lines: string[]) => lines.join('\r\n') + '\r\n';
/** The body lines of each card (without BEGIN, VERSION and END). */
const bodies = (file: Buffer) =>
  vcardTexts(file).map((c) => c.text.split('\r\n').filter((l) => l && !/^(BEGIN|END):VCARD$/.test(l)));

describe('quoted-printable', () => {
  it('decodes =XX to bytes and leaves a stray = and everything else as it is', () => {
    expect(decodeQuotedPrintable('=CF=F0=E8 a=3Db =x')).toEqual(
      Buffer.concat([Buffer.from([0xcf, 0xf0, 0xe8]), Buffer.from(' a=b =x', 'latin1')]),
    );
    expect(decodeQuotedPrintable('end=')).toEqual(Buffer.from('end'));
  });
});

describe('the vCard pre-pass', () => {
  it('rewrites a 2.1 card as 3.0: bare type parameters gathered into TYPE, VALUE=URL as uri, ENCODING=b', () => {
    const file = Buffer.from(
      crlf(
        'BEGIN:VCARD',
        'VERSION:2.1',
        'TEL;WORK;VOICE:+7 495 123-45-67',
        'EMAIL;PREF;INTERNET:a@example.ru',
        'URL;WORK;VALUE=URL:http://example.ru',
        'PHOTO;TYPE=JPEG;ENCODING=BASE64:',
        '  /9j/4AAQ',
        '  SkZJRg==',
        '',
        'END:VCARD',
      ),
    );
    expect(vcardTexts(file)).toEqual([
      {
        entry: 1,
        text: crlf(
          'BEGIN:VCARD',
          'VERSION:3.0',
          'TEL;TYPE=WORK,VOICE:+7 495 123-45-67',
          'EMAIL;TYPE=PREF,INTERNET:a@example.ru',
          'URL;VALUE=uri;TYPE=WORK:http://example.ru',
          'PHOTO;TYPE=JPEG;ENCODING=b:/9j/4AAQSkZJRg==',
          'END:VCARD',
        ),
      },
    ]);
  });

  it('joins quoted-printable soft line breaks and decodes each value in its CHARSET, breaks as \\n', () => {
    const qp = (text: string) =>
      [...iconv.encode(text, 'win1251')]
        .map((b) => `=${b.toString(16).toUpperCase().padStart(2, '0')}`)
        .join('');
    const note = qp('Первая строка, и ещё');
    const file = Buffer.from(
      crlf(
        'BEGIN:VCARD',
        'VERSION:2.1',
        `N;CHARSET=windows-1251;ENCODING=QUOTED-PRINTABLE:${qp('Сидоров;Алексей')}`,
        `NOTE;ENCODING=QUOTED-PRINTABLE;CHARSET=windows-1251:${note.slice(0, 30)}=`,
        `${note.slice(30)}=0D=0A${qp('вторая')}`,
        'CATEGORIES;CHARSET=utf-8;ENCODING=QUOTED-PRINTABLE:=D0=94=D1=80=D1=83=D0=B7=D1=8C=D1=8F,Work',
        'END:VCARD',
      ),
      'latin1',
    );
    expect(bodies(file)).toEqual([
      ['VERSION:3.0', 'N:Сидоров;Алексей', 'NOTE:Первая строка\\, и ещё\\nвторая', 'CATEGORIES:Друзья,Work'],
    ]);
  });

  it('reads a file without a charset as UTF-8 when it is valid UTF-8, else as windows-1251', () => {
    const card = (name: string) => crlf('BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, 'END:VCARD');
    expect(bodies(Buffer.from(card('Мария'), 'utf8'))[0]).toContain('FN:Мария');
    expect(bodies(iconv.encode(card('Мария'), 'win1251'))[0]).toContain('FN:Мария');
    // A 2.1 property in raw bytes with its CHARSET.
    const raw = Buffer.concat([
      Buffer.from('BEGIN:VCARD\r\nVERSION:2.1\r\nTITLE;CHARSET=windows-1251:'),
      iconv.encode('Бухгалтер', 'win1251'),
      Buffer.from('\r\nEND:VCARD\r\n'),
    ]);
    expect(bodies(raw)[0]).toContain('TITLE:Бухгалтер');
  });

  it('honours a byte order mark: UTF-8, UTF-16 LE and BE', () => {
    const text = crlf('BEGIN:VCARD', 'VERSION:4.0', 'FN:Ёлка', 'END:VCARD');
    for (const file of [
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(text, 'utf-16be')]),
    ])
      expect(bodies(file)).toEqual([['VERSION:4.0', 'FN:Ёлка']]);
  });

  it('unfolds 3.0 and 4.0 lines, keeps their parameters, and numbers the cards; a nested AGENT card is left out', () => {
    const file = Buffer.from(
      crlf(
        'begin:vcard',
        'version:4.0',
        'TEL;VALUE=uri;TYPE="voice,cell";PREF=1:tel:+7-903-555-01',
        ' 01',
        'item1.URL:https://example.com',
        'end:vcard',
        'BEGIN:VCARD',
        'VERSION:2.1',
        'FN:Boss',
        'AGENT:',
        'BEGIN:VCARD',
        'VERSION:2.1',
        'FN:Secretary',
        'END:VCARD',
        'END:VCARD',
      ),
    );
    const cards = vcardTexts(file);
    expect(cards.map((c) => c.entry)).toEqual([1, 2]);
    expect(bodies(file)).toEqual([
      [
        'VERSION:4.0',
        'TEL;VALUE=uri;TYPE="voice,cell";PREF=1:tel:+7-903-555-0101',
        'item1.URL:https://example.com',
      ],
      ['VERSION:3.0', 'FN:Boss'],
    ]);
  });
});
