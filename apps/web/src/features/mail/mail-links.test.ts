import { describe, expect, it } from 'vitest';
import { readMailLink } from './mail-links';

const read = (query: string) => readMailLink(new URLSearchParams(query));

describe('readMailLink (SPEC §2 /mail query)', () => {
  it('reads each parameter', () => {
    expect(read('message_id=%3Ca%40b%3E&label=4&sender=x@example.org&recipient=y@example.org')).toEqual({
      open: { messageId: '<a@b>' },
      label: 4,
      sender: 'x@example.org',
      recipient: 'y@example.org',
    });
    expect(read('uid=12').open).toEqual({ uid: 12 });
  });

  it('leaves out what is malformed, as if it were not there', () => {
    expect(read('uid=-1&label=abc&sender=not-an-address&recipient=%20&message_id=%20')).toEqual({
      open: null,
      label: null,
      sender: null,
      recipient: null,
    });
    expect(read('uid=1e3&label=99999999999999999999').open).toBeNull();
  });
});
