import { describe, expect, it } from 'vitest';
import { readMailLink } from './mail-links';

const read = (query: string) => readMailLink(new URLSearchParams(query));

describe('readMailLink (SPEC §2 /mail query)', () => {
  it('reads each parameter', () => {
    expect(
      read('message_id=%3Ca%40b%3E&label=4&sender=x@example.org&recipient=y@example.org&group=7'),
    ).toEqual({
      open: { messageId: '<a@b>' },
      label: 4,
      sender: 'x@example.org',
      recipients: [{ name: '', email: 'y@example.org' }],
      group: 7,
    });
    expect(read('uid=12').open).toEqual({ uid: 12 });
  });

  it('leaves out what is malformed, as if it were not there', () => {
    expect(read('uid=-1&label=abc&sender=not-an-address&recipient=%20&message_id=%20&group=x')).toEqual({
      open: null,
      label: null,
      sender: null,
      recipients: [],
      group: null,
    });
    expect(read('uid=1e3&label=99999999999999999999').open).toBeNull();
  });

  it('reads several recipients, named or not, each once (the contacts screen writes to a selection)', () => {
    const query = new URLSearchParams();
    for (const value of [
      'Ann Lee <ann@example.org>',
      'bob@example.org',
      '"Lee, Ann" <ANN@example.org>',
      'nobody',
    ])
      query.append('recipient', value);
    expect(readMailLink(query).recipients).toEqual([
      { name: 'Ann Lee', email: 'ann@example.org' },
      { name: '', email: 'bob@example.org' },
    ]);
  });
});
