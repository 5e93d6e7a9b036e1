import { describe, expect, it } from 'vitest';
import { COMPOSE_MODE, type Mail, uncheckedTrust } from '@mailroom/protocol';
import { testAccount } from '../../test/fixtures';
import { ownAddresses } from '../account';
import { fromOptions, mergeTags, replyFrom, replyRecipients, splitRecipients } from './addresses';

const account = {
  ...testAccount(),
  aliases: [{ id: 7, email: 'ann.work@mailroom.test' }],
  profiles: [
    { id: 1, name: 'Ann at home', email: 'ann@mailroom.test', signature: 'Ann', default: false },
    { id: 2, name: 'Ann Lee', email: 'ann.lee@mailroom.test', signature: '<b>Ann Lee</b>', default: true },
  ],
};

function mail(fields: Partial<Mail['fields']>): Mail {
  return {
    id: 1,
    uid: 1,
    folder_id: 1,
    subject: 'Plans',
    flags: { seen: true, flagged: false, draft: false },
    labels: [],
    fields: { from: [], to: [], cc: [], bcc: [], 'reply-to': [], ...fields },
    preview: '',
    has_attachments: false,
    encrypted: false,
    size: 1,
    created_at: '2026-11-20T10:00:00Z',
    thread_id: 1,
    content: '',
    content_type: 'text/plain',
    attachments: [],
    images_blocked: false,
    message_id: null,
    trust: uncheckedTrust,
  };
}

const person = (email: string, name = '') => ({ email, name });

describe('splitting what was typed into a recipient field', () => {
  it('splits on spaces, commas and semicolons and flags what is not an address', () => {
    expect(splitRecipients('bob@example.org, carol@example.org;dave  nobody@')).toEqual([
      { email: 'bob@example.org', name: '', valid: true },
      { email: 'carol@example.org', name: '', valid: true },
      { email: 'dave', name: '', valid: false },
      { email: 'nobody@', name: '', valid: false },
    ]);
  });

  it('keeps the name of a pasted "Name <address>" and does not swallow an address before it', () => {
    expect(splitRecipients('bob@example.org Ann Lee <ann@example.org>, "Lee, Ann" <a2@example.org>')).toEqual(
      [
        { email: 'bob@example.org', name: '', valid: true },
        { email: 'ann@example.org', name: 'Ann Lee', valid: true },
        { email: 'a2@example.org', name: 'Lee, Ann', valid: true },
      ],
    );
  });

  it('takes Cyrillic domains and mailto: links', () => {
    expect(splitRecipients('mailto:ivan@пример.рф')).toEqual([
      { email: 'ivan@пример.рф', name: '', valid: true },
    ]);
  });

  it('adds an address already in the field only once, but keeps every flagged piece', () => {
    const first = splitRecipients('bob@example.org x');
    expect(mergeTags(first, splitRecipients('BOB@example.org x'))).toHaveLength(3);
  });
});

describe('From choices', () => {
  it('list the default profile first, then the other profiles, the primary address and the aliases', () => {
    expect(fromOptions(account, null).map((option) => option.email)).toEqual([
      'ann.lee@mailroom.test',
      'ann@mailroom.test',
      'ann.work@mailroom.test',
    ]);
  });

  it('give an alias-only session only its alias', () => {
    expect(fromOptions(account, 'ANN.work@mailroom.test').map((option) => option.email)).toEqual([
      'ann.work@mailroom.test',
    ]);
  });

  it('answer from the address the message came to', () => {
    const options = fromOptions(account, null);
    const message = mail({ from: [person('bob@example.org')], to: [person('ann.work@mailroom.test')] });
    expect(replyFrom(options, message)?.email).toBe('ann.work@mailroom.test');
    expect(replyFrom(options, mail({ to: [person('x@example.org')] }))?.email).toBe('ann.lee@mailroom.test');
  });
});

describe('reply recipients', () => {
  const own = ownAddresses(account);
  const message = mail({
    from: [person('bob@example.org', 'Bob')],
    to: [person('ann@mailroom.test'), person('carol@example.org')],
    cc: [person('ANN.WORK@mailroom.test'), person('dave@example.org'), person('carol@example.org')],
  });

  it('reply goes to the sender only', () => {
    expect(replyRecipients(COMPOSE_MODE.REPLY, message, own)).toEqual({
      to: [person('bob@example.org', 'Bob')],
      cc: [],
    });
  });

  it('reply goes to Reply-To when the message has one', () => {
    const withReplyTo = {
      ...message,
      fields: { ...message.fields, 'reply-to': [person('list@example.org')] },
    };
    expect(replyRecipients(COMPOSE_MODE.REPLY, withReplyTo, own).to).toEqual([person('list@example.org')]);
  });

  it('reply-all leaves out the own primary address, aliases and profiles, and repeats', () => {
    expect(replyRecipients(COMPOSE_MODE.REPLY_ALL, message, own)).toEqual({
      to: [person('bob@example.org', 'Bob'), person('carol@example.org')],
      cc: [person('dave@example.org')],
    });
  });

  it('a reply to the user’s own sent message goes to its recipients', () => {
    const sent = mail({ from: [person('ann.lee@mailroom.test')], to: [person('bob@example.org')] });
    expect(replyRecipients(COMPOSE_MODE.REPLY, sent, own).to).toEqual([person('bob@example.org')]);
  });

  it('a forward starts with no recipients', () => {
    expect(replyRecipients(COMPOSE_MODE.FORWARD, message, own)).toEqual({ to: [], cc: [] });
  });
});
