import { describe, expect, it } from 'vitest';
import { autoReplyRefusal } from './auto-reply.js';

const h = (name: string, value: string) => ({ name, value: ` ${value}` });

describe('whether a vacation reply may answer', () => {
  it('answers a person', () => {
    expect(
      autoReplyRefusal([h('From', 'a@example.com'), h('Auto-Submitted', 'no')], 'a@example.com'),
    ).toBeNull();
  });

  it('never answers automatic, bulk or list mail, the null sender, daemons or list owners', () => {
    expect(autoReplyRefusal([h('Auto-Submitted', 'auto-replied')], 'a@example.com')).toMatch(/automatic/);
    expect(autoReplyRefusal([h('Precedence', 'Bulk')], 'a@example.com')).toMatch(/bulk/);
    expect(autoReplyRefusal([h('Precedence', 'list')], 'a@example.com')).toMatch(/bulk/);
    expect(autoReplyRefusal([h('List-Id', '<dev.lists.example.org>')], 'a@example.com')).toMatch(/list/);
    expect(autoReplyRefusal([], '')).toMatch(/null/);
    expect(autoReplyRefusal([], 'MAILER-DAEMON@example.com')).toMatch(/daemon/);
    expect(autoReplyRefusal([], 'owner-dev@lists.example.org')).toMatch(/daemon/);
  });

  it("answers only mail that names the mailbox in its recipients, or one of the script's :addresses", () => {
    const to = [h('To', 'Ann <ann@mailroom.test>'), h('Cc', 'x@example.com')];
    expect(autoReplyRefusal(to, 'a@example.com', ['ANN@mailroom.test'])).toBeNull();
    expect(autoReplyRefusal([h('To', 'list@example.com')], 'a@example.com', ['ann@mailroom.test'])).toMatch(
      /not addressed/,
    );
    expect(
      autoReplyRefusal([h('To', 'ann.alias@example.net')], 'a@example.com', [
        'ann@mailroom.test',
        'ann.alias@example.net',
      ]),
    ).toBeNull();
  });
});
