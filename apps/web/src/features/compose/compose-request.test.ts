import { describe, expect, it } from 'vitest';
import { ATTACHMENTS_TOTAL_LIMIT_BYTES } from '@mailroom/protocol';
import { splitRecipients } from './addresses';
import { composeRequest, emptyRecipients, fitsAttachmentLimit, sendProblem } from './compose-request';

describe('checks before sending', () => {
  it('no recipient at all is email_not_specified (Reply-To is not a recipient)', () => {
    const recipients = { ...emptyRecipients(), 'reply-to': splitRecipients('me@example.org') };
    expect(sendProblem(recipients)).toEqual({ code: 'email_not_specified' });
  });

  it('a flagged piece is invalid_email_for with every field that has one', () => {
    const recipients = {
      to: splitRecipients('bob@example.org bob'),
      cc: splitRecipients('carol@example.org'),
      bcc: splitRecipients('x@'),
      'reply-to': [],
    };
    expect(sendProblem(recipients)).toEqual({ code: 'invalid_email_for', fields: ['to', 'bcc'] });
  });

  it('a Bcc alone is enough to send', () => {
    expect(sendProblem({ ...emptyRecipients(), bcc: splitRecipients('bob@example.org') })).toBeNull();
  });
});

describe('the attachment limit', () => {
  it('allows exactly 50 MB in total and not a byte more', () => {
    expect(fitsAttachmentLimit([ATTACHMENTS_TOTAL_LIMIT_BYTES - 10], 10)).toBe(true);
    expect(fitsAttachmentLimit([ATTACHMENTS_TOTAL_LIMIT_BYTES - 10], 11)).toBe(false);
  });
});

describe('the request body', () => {
  it('saves only the valid addresses of a draft and says which draft it replaces', () => {
    const request = composeRequest(
      {
        from: { email: 'ann@mailroom.test', name: 'Ann' },
        recipients: { ...emptyRecipients(), to: splitRecipients('Bob <bob@example.org> bob') },
        subject: 'Тема',
        body: '<p>Hi</p>',
        format: 'html',
        attachments: [4, 5],
        draftUid: 9,
        source: { folder_id: 1, uid: 2, mode: 1 },
      },
      true,
    );
    expect(request).toEqual({
      subject: 'Тема',
      fields: {
        from: { email: 'ann@mailroom.test', name: 'Ann' },
        to: [{ email: 'bob@example.org', name: 'Bob' }],
        cc: [],
        bcc: [],
        'reply-to': [],
      },
      content: '<p>Hi</p>',
      content_type: 'text/html',
      attachments: [4, 5],
      uid: 9,
      source: { folder_id: 1, uid: 2, mode: 1 },
      isDraft: true,
    });
  });
});
