import { describe, expect, it } from 'vitest';
import { parseVcards, writeVcards, type ExportContact } from './vcard.js';

const file = (...lines: string[]) => Buffer.from(lines.join('\r\n') + '\r\n');

describe('reading vCards', () => {
  it('takes the preferred address and phone first (PREF=n in 4.0, TYPE=pref in 3.0)', () => {
    const { entries } = parseVcards(
      file(
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:A',
        'EMAIL;PREF=2:second@example.com',
        'EMAIL:third@example.com',
        'EMAIL;PREF=1:first@example.com',
        'TEL:1',
        'TEL;PREF=1:2',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:B',
        'EMAIL;TYPE=INTERNET:other@example.com',
        'EMAIL;TYPE=INTERNET,PREF:main@example.com',
        'END:VCARD',
      ),
    );
    expect(entries[0]).toMatchObject({
      name: 'A',
      emails: ['first@example.com', 'second@example.com', 'third@example.com'],
      phone: '2',
      // vCard 4.0's TEL is a URI unless it says VALUE=text.
      properties: [['tel', {}, 'uri', '1']],
    });
    expect(entries[1]!.emails).toEqual(['main@example.com', 'other@example.com']);
  });

  it('keeps what it does not show in vCard 4.0 form: 3.0 phone-number as text, an inline photo as a data: URI', () => {
    const { entries } = parseVcards(
      file(
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Doe;Jane;;;',
        'TEL;TYPE=CELL:1',
        'TEL;TYPE=WORK,PREF:2',
        'PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ',
        'BDAY;X-APPLE-OMIT-YEAR=1604:1604-06-15',
        'END:VCARD',
      ),
    );
    expect(entries[0]).toMatchObject({ name: 'Jane', surname: 'Doe', phone: '2', birthday: null });
    expect(entries[0]!.properties).toEqual([
      ['tel', { type: 'CELL' }, 'text', '1'],
      ['bday', { 'x-apple-omit-year': '1604' }, 'date', '1604-06-15'],
      ['photo', {}, 'uri', 'data:image/jpeg;base64,/9j/4AAQ'],
    ]);
  });

  it('skips a card ical.js cannot read, with its place, and reads the rest', () => {
    const parsed = parseVcards(
      file(
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:Broken',
        'X;=a:b',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:Good',
        'END:VCARD',
      ),
    );
    expect(parsed.entries.map((e) => [e.entry, e.name])).toEqual([[2, 'Good']]);
    expect(parsed.skipped).toEqual([{ entry: 1, reason: expect.stringMatching(/^unreadable: .*parameter/) }]);
  });
});

describe('writing vCards', () => {
  const contact: ExportContact = {
    name: 'A, B',
    surname: 'C;D',
    emails: ['p@example.com', 'q@example.com'],
    phone: '+7 1',
    birthday: '1990-01-02',
    notes: 'line 1\nline 2, with a comma',
    groups: ['Friends, old', 'Work'],
    properties: [['x-custom', { type: 'a' }, 'unknown', 'kept']],
  };

  it('writes vCard 4.0 with the primary address PREF=1, groups as CATEGORIES and the kept properties', () => {
    const text = writeVcards([contact]);
    expect(text.split('\r\n')).toEqual([
      'BEGIN:VCARD',
      'VERSION:4.0',
      'PRODID:-//Mailroom//Contacts//EN',
      'FN:A\\, B C;D',
      'N:C\\;D;A\\, B;;;',
      'EMAIL;PREF=1:p@example.com',
      'EMAIL:q@example.com',
      'TEL;VALUE=TEXT:+7 1',
      'BDAY;VALUE=DATE:19900102',
      'NOTE:line 1\\nline 2\\, with a comma',
      'CATEGORIES:Friends\\, old,Work',
      'X-CUSTOM;TYPE=a:kept',
      'END:VCARD',
      '',
    ]);
  });

  it('reads back what it wrote', () => {
    const { entries } = parseVcards(Buffer.from(writeVcards([contact])));
    expect(entries).toEqual([{ entry: 1, ...contact, uid: null }]);
    expect(writeVcards([])).toBe('');
  });
});
