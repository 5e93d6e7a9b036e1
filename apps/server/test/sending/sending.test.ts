import { describe, expect, it } from 'vitest';
import { COMPOSE_MODE } from '@mailroom/protocol';
import { Browser, createTestApp } from '../_util.js';
import { mailUser } from '../_actions.js';
import { compose, firstAddress, parse } from '../_sending.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import { api, apiRequest } from '../_client.js';

const ctx = await createTestApp();
const { db, blobs } = ctx;
const ann = await mailUser(ctx, 'Ann Lee');
const bob = await mailUser(ctx, 'Bo Chen');

/** The messages of a folder, newest first, with their raw bytes. */
async function folder(folderId: number) {
  const rows = await db
    .selectFrom('messages')
    .select(['id', 'uid', 'subject', 'thread_id', 'blob_hash', 'seen', 'draft', 'answered', 'alias_id'])
    .where('folder_id', '=', folderId)
    .orderBy('id', 'desc')
    .execute();
  return Promise.all(rows.map(async (r) => ({ ...r, raw: await blobs.get(r.blob_hash) })));
}

describe('sending to local recipients', () => {
  it('lands in the Inbox of the recipient and in Sent of the sender', async () => {
    const subject = `Lunch ${Math.random()}`;
    const { status, body } = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { subject }),
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ delivered: 1, queued: 0, relay_configured: false });
    expect(body.message.folder_id).toBe(ann.folders.sent);
    const [inBob] = await folder(bob.folders.inbox);
    const [inSent] = await folder(ann.folders.sent);
    expect(inBob!.subject).toBe(subject);
    expect(inSent!.subject).toBe(subject);
    expect(inSent!.uid).toBe(body.message.uid);
    expect(inSent!.seen).toBe(true);
    expect(inBob!.seen).toBe(false);
    const mail = await parse(inBob!.raw);
    expect(mail.from?.value[0]?.address).toBe(ann.email);
    expect(mail.messageId).toMatch(/@mailroom\.test>$/);
    expect(mail.date).toBeInstanceOf(Date);
  });

  it('a Cyrillic subject and name travel as encoded words, and HTML gets a text alternative', async () => {
    const request = compose(ann.email, [bob.email], {
      subject: 'Привет, как дела?',
      content: '<p>Первая строка</p><ul><li>пункт</li></ul><p><a href="https://example.com/x">ссылка</a></p>',
    });
    request.fields.from.name = 'Анна Ли';
    expect((await api(ann.browser, 'sendMessage', { body: request })).status).toBe(200);
    const [inBob] = await folder(bob.folders.inbox);
    const header = inBob!.raw.toString('latin1').split('\r\n\r\n')[0]!;
    expect(header).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/m);
    expect(header).toMatch(/^From: =\?UTF-8\?[BQ]\?.*<.*@mailroom\.test>/m);
    // eslint-disable-next-line no-control-regex
    expect(header).not.toMatch(/[^\x00-\x7f]/);
    const mail = await parse(inBob!.raw);
    expect(mail.subject).toBe('Привет, как дела?');
    expect(mail.from?.value[0]?.name).toBe('Анна Ли');
    expect(mail.html).toContain('<li>пункт</li>');
    expect(mail.text).toContain('Первая строка');
    expect(mail.text).toContain('https://example.com/x');
    expect(mail.text).not.toContain('<p>');
  });

  it('a plain-text message is sent as text only', async () => {
    const request = compose(ann.email, [bob.email], {
      content: 'just <b>text</b>\nline two',
      content_type: 'text/plain',
    });
    expect((await api(ann.browser, 'sendMessage', { body: request })).status).toBe(200);
    const mail = await parse((await folder(bob.folders.inbox))[0]!.raw);
    expect(mail.html).toBe(false);
    expect(mail.text).toContain('just <b>text</b>\nline two');
  });

  it('Bcc recipients get the message but nobody sees them; the Sent copy keeps them', async () => {
    const carol = await mailUser(ctx, 'Carol Diaz');
    const subject = `Quiet ${Math.random()}`;
    const request = compose(ann.email, [bob.email], {
      subject,
      fields: {
        from: { email: ann.email, name: 'Ann' },
        to: [{ email: bob.email, name: 'Bo' }],
        bcc: [{ email: carol.email, name: 'Carol' }],
      },
    });
    const { body } = await api(ann.browser, 'sendMessage', { body: request });
    expect(body.delivered).toBe(2);
    for (const inbox of [bob.folders.inbox, carol.folders.inbox]) {
      const [got] = await folder(inbox);
      expect(got!.subject).toBe(subject);
      expect(got!.raw.toString()).not.toContain(carol.email.split('@')[0]!);
      expect((await parse(got!.raw)).bcc).toBeUndefined();
    }
    const [sent] = await folder(ann.folders.sent);
    expect(firstAddress((await parse(sent!.raw)).bcc)).toBe(carol.email);
  });

  it('a message to oneself arrives in the Inbox as well as in Sent', async () => {
    const subject = `Note to self ${Math.random()}`;
    const { body } = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [ann.email], { subject }),
    });
    expect(body.delivered).toBe(1);
    expect((await folder(ann.folders.inbox))[0]!.subject).toBe(subject);
    expect((await folder(ann.folders.sent))[0]!.subject).toBe(subject);
  });

  it('a reply carries In-Reply-To and References, stays in the thread on both sides and marks the original answered', async () => {
    const subject = `Plans ${Math.random()}`;
    await api(ann.browser, 'sendMessage', { body: compose(ann.email, [bob.email], { subject }) });
    const [original] = await folder(bob.folders.inbox);
    const originalId = (await parse(original!.raw)).messageId!;
    const reply = compose(bob.email, [ann.email], {
      subject: `Re: ${subject}`,
      source: { folder_id: bob.folders.inbox, uid: original!.uid, mode: COMPOSE_MODE.REPLY },
    });
    expect((await api(bob.browser, 'sendMessage', { body: reply })).status).toBe(200);

    const [bobSent] = await folder(bob.folders.sent);
    expect(bobSent!.thread_id).toBe(original!.thread_id);
    const [annGot] = await folder(ann.folders.inbox);
    const [annSent] = (await folder(ann.folders.sent)).filter((m) => m.subject === subject);
    expect(annGot!.subject).toBe(`Re: ${subject}`);
    expect(annGot!.thread_id).toBe(annSent!.thread_id);
    const parsed = await parse(annGot!.raw);
    expect(parsed.inReplyTo).toBe(originalId);
    expect(parsed.references).toContain(originalId);
    const [marked] = (await folder(bob.folders.inbox)).filter((m) => m.uid === original!.uid);
    expect(marked!.answered).toBe(true);
  });

  it('a reply to a message of another account is refused', async () => {
    const [bobs] = await folder(bob.folders.inbox);
    const { status, body } = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], {
        source: { folder_id: bob.folders.inbox, uid: bobs!.uid, mode: COMPOSE_MODE.REPLY },
      }),
    });
    expect(status).toBe(404);
    expect(body.error.meta.i8s).toBe('message_not_found');
  });

  it('an address of ours without a mailbox comes back as a bounce', async () => {
    const { body } = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, ['nobody-here@mailroom.test'], { subject: 'Lost' }),
    });
    expect(body).toMatchObject({ delivered: 0, queued: 0 });
    const [bounce] = await folder(ann.folders.inbox);
    const mail = await parse(bounce!.raw);
    expect(mail.subject).toBe('Undelivered Mail Returned to Sender');
    expect(bounce!.raw.toString()).toContain('multipart/report');
    expect(bounce!.raw.toString()).toContain('Final-Recipient: rfc822; nobody-here@mailroom.test');
    expect(bounce!.raw.toString()).toContain('Status: 5.1.1');
  });
});

describe('a full mailbox at the recipient', () => {
  it('keeps the message queued for a retry while the mailbox is full for now', async () => {
    const full = await mailUser(ctx, 'Full Box');
    await db
      .updateTable('accounts')
      .set({ quota_limit_bytes: 200_000, quota_used_bytes: 199_900 })
      .where('id', '=', full.accountId)
      .execute();
    const { body } = await api(ann.browser, 'sendMessage', { body: compose(ann.email, [full.email]) });
    expect(body).toMatchObject({ delivered: 0, queued: 0 });
    const [row] = await db
      .selectFrom('outbox')
      .select(['status', 'last_error'])
      .where('recipient', '=', full.email)
      .execute();
    expect(row!.status).toBe('queued');
    expect(row!.last_error).toMatch(/^4\.2\.2/);
    expect(await folder(full.folders.inbox)).toEqual([]);
  });

  it('bounces at once when the message is bigger than the whole mailbox', async () => {
    const tiny = await mailUser(ctx, 'Tiny Box');
    await db
      .updateTable('accounts')
      .set({ quota_limit_bytes: 500 })
      .where('id', '=', tiny.accountId)
      .execute();
    await api(ann.browser, 'sendMessage', { body: compose(ann.email, [tiny.email], { subject: 'Too big' }) });
    const [row] = await db
      .selectFrom('outbox')
      .select(['status', 'last_error'])
      .where('recipient', '=', tiny.email)
      .execute();
    expect(row!.status).toBe('bounced');
    const [bounce] = await folder(ann.folders.inbox);
    expect(bounce!.raw.toString()).toContain('Status: 5.2.2');
  });
});

describe('drafts', () => {
  it('saving stores a \\Draft copy; saving again replaces it; sending deletes it', async () => {
    const first = await api(ann.browser, 'saveDraft', {
      body: compose(ann.email, [], { subject: 'Draft one', isDraft: true }),
    });
    expect(first.status).toBe(200);
    expect(first.body.message.folder_id).toBe(ann.folders.draft);
    let drafts = await folder(ann.folders.draft);
    expect(drafts.map((d) => d.subject)).toEqual(['Draft one']);
    expect(drafts[0]!.draft).toBe(true);

    const second = await api(ann.browser, 'saveDraft', {
      body: compose(ann.email, [bob.email], { subject: 'Draft two', uid: first.body.message.uid }),
    });
    drafts = await folder(ann.folders.draft);
    expect(drafts.map((d) => d.subject)).toEqual(['Draft two']);
    expect(drafts[0]!.uid).toBe(second.body.message.uid);

    const sent = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { subject: 'Draft two', uid: second.body.message.uid }),
    });
    expect(sent.status).toBe(200);
    expect(await folder(ann.folders.draft)).toEqual([]);
    const counters = await db
      .selectFrom('folders')
      .select(['total_count', 'unread_count'])
      .where('id', '=', ann.folders.draft)
      .executeTakeFirstOrThrow();
    expect(counters).toEqual({ total_count: 0, unread_count: 0 });
  });

  it('a draft keeps Bcc and may have no recipient yet', async () => {
    const request = compose(ann.email, [], {
      subject: 'Secret plan',
      fields: { from: { email: ann.email, name: '' }, bcc: [{ email: bob.email, name: '' }] },
    });
    const saved = await api(ann.browser, 'saveDraft', { body: request });
    const [draft] = (await folder(ann.folders.draft)).filter((d) => d.uid === saved.body.message.uid);
    expect(firstAddress((await parse(draft!.raw)).bcc)).toBe(bob.email);
    const empty = await api(ann.browser, 'saveDraft', { body: compose(ann.email, [], { subject: '' }) });
    expect(empty.status).toBe(200);
  });

  it('a reply saved as a draft and sent later without its source still answers the original', async () => {
    const subject = `Budget ${Math.random()}`;
    await api(ann.browser, 'sendMessage', { body: compose(ann.email, [bob.email], { subject }) });
    const [original] = await folder(bob.folders.inbox);
    const originalId = (await parse(original!.raw)).messageId!;
    const saved = await api(bob.browser, 'saveDraft', {
      body: compose(bob.email, [ann.email], {
        subject: `Re: ${subject}`,
        isDraft: true,
        source: { folder_id: bob.folders.inbox, uid: original!.uid, mode: COMPOSE_MODE.REPLY },
      }),
    });
    expect(saved.status).toBe(200);
    // Reopened from Drafts: the compose window sends the draft's uid, not the message it answers.
    const sent = await api(bob.browser, 'sendMessage', {
      body: compose(bob.email, [ann.email], { subject: `Re: ${subject}`, uid: saved.body.message.uid }),
    });
    expect(sent.status).toBe(200);
    const [annGot] = await folder(ann.folders.inbox);
    const parsed = await parse(annGot!.raw);
    expect(parsed.inReplyTo).toBe(originalId);
    const [annSent] = (await folder(ann.folders.sent)).filter((m) => m.subject === subject);
    expect(annGot!.thread_id).toBe(annSent!.thread_id);
  });

  it('a draft discarded by its compose window is gone for good, not moved to Trash; nothing else is touched', async () => {
    const saved = await api(ann.browser, 'saveDraft', {
      body: compose(ann.email, [], { subject: 'Re: junk' }),
    });
    const uid = saved.body.message.uid as number;
    const bobDraft = await api(bob.browser, 'saveDraft', {
      body: compose(bob.email, [], { subject: 'Keep' }),
    });
    const quota = async () =>
      (
        await db
          .selectFrom('accounts')
          .select('quota_used_bytes')
          .where('id', '=', ann.accountId)
          .executeTakeFirstOrThrow()
      ).quota_used_bytes;
    const before = await quota();

    const gone = await api(ann.browser, 'discardDraft', { params: { uid } });
    expect(gone).toEqual({ status: 200, body: { ok: true } });
    expect((await folder(ann.folders.draft)).map((d) => d.uid)).not.toContain(uid);
    expect((await folder(ann.folders.trash)).map((d) => d.subject)).not.toContain('Re: junk');
    expect(Number(await quota())).toBeLessThan(Number(before));
    // Again, or another account's draft: nothing to remove, nothing removed.
    expect((await api(ann.browser, 'discardDraft', { params: { uid } })).status).toBe(200);
    await api(ann.browser, 'discardDraft', { params: { uid: bobDraft.body.message.uid } });
    expect((await folder(bob.folders.draft)).map((d) => d.subject)).toContain('Keep');
    expect((await api(ann.browser, 'discardDraft', { params: { uid: 'abc' } })).status).toBe(404);
  });

  it("another account's draft uid is not touched", async () => {
    const bobDraft = await api(bob.browser, 'saveDraft', {
      body: compose(bob.email, [], { subject: 'Mine' }),
    });
    await api(ann.browser, 'saveDraft', {
      body: compose(ann.email, [], { subject: 'Hers', uid: bobDraft.body.message.uid }),
    });
    expect((await folder(bob.folders.draft)).map((d) => d.subject)).toContain('Mine');
  });
});

describe('what is refused', () => {
  const send = (request: unknown) => api(ann.browser, 'sendMessage', { body: request });

  it('invalid recipients name their fields', async () => {
    const request = compose(ann.email, ['not-an-address'], {
      fields: {
        from: { email: ann.email, name: '' },
        to: [{ email: 'not-an-address', name: '' }],
        cc: [
          { email: bob.email, name: '' },
          { email: 'x@', name: '' },
        ],
        bcc: [{ email: bob.email, name: '' }],
      },
    });
    const { status, body } = await send(request);
    expect(status).toBe(400);
    expect(body.error.meta.i8s).toBe('invalid_email_for');
    expect(body.error.message).toBe('Invalid email for: to, cc');
  });

  it('no recipient at all is email_not_specified', async () => {
    const { status, body } = await send(compose(ann.email, []));
    expect(status).toBe(400);
    expect(body.error.meta.i8s).toBe('email_not_specified');
  });

  it("someone else's From address is refused", async () => {
    for (const from of [bob.email, 'ceo@example.com']) {
      const { status, body } = await send(compose(from, [bob.email]));
      expect(status).toBe(400);
      expect(body.error.meta.i8s).toBe('failed_validation_email_address');
    }
  });

  it('a line break in the subject, a name or an address is refused, even inside an encoded word', async () => {
    const cases: [string, (r: ReturnType<typeof compose>) => void, string][] = [
      ['subject CRLF', (r) => (r.subject = 'Hi\r\nBcc: victim@example.com'), 'subject'],
      ['subject LF', (r) => (r.subject = 'Hi\nX-Evil: 1'), 'subject'],
      ['subject CR', (r) => (r.subject = 'Hi\rX-Evil: 1'), 'subject'],
      ['subject NUL', (r) => (r.subject = 'Hi\u0000there'), 'subject'],
      [
        'encoded CRLF in subject',
        (r) => (r.subject = '=?UTF-8?B?SGkNCkJjYzogdmljdGltQGV4YW1wbGUuY29t?='),
        'subject',
      ],
      ['Q-encoded LF in subject', (r) => (r.subject = '=?utf-8?q?Hi=0AX-Evil:_1?='), 'subject'],
      ['sender name', (r) => (r.fields.from.name = 'Ann\r\nBcc: victim@example.com'), 'from'],
      ['recipient name', (r) => (r.fields.to[0]!.name = 'Bo\nX-Evil: 1'), 'to'],
      ['encoded recipient name', (r) => (r.fields.to[0]!.name = '=?UTF-8?B?Qm8NClgtRXZpbDogMQ==?='), 'to'],
      ['recipient address', (r) => (r.fields.to[0]!.email = `${bob.email}\r\nBcc: victim@example.com`), 'to'],
    ];
    for (const [what, mutate, field] of cases) {
      const request = compose(ann.email, [bob.email]);
      mutate(request);
      const { status, body } = await send(request);
      expect(status, what).toBe(400);
      expect(body.error.meta.i8s, what).toBe('invalid_header_value');
      expect(body.error.message, what).toContain(field);
      const draft = await api(ann.browser, 'saveDraft', { body: request });
      expect(draft.status, `${what} (draft)`).toBe(400);
    }
    // Nothing was stored or queued by any of them.
    const evil = await db.selectFrom('outbox').select('id').where('recipient', 'like', '%victim%').execute();
    expect(evil).toEqual([]);
  });

  it('without a session it is 401', async () => {
    const response = await apiRequest(new Browser(ctx.app), 'sendMessage', {
      body: compose(ann.email, [bob.email]),
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('an alias-only session', () => {
  it('sends only as its own address, and sees its own Sent copy', async () => {
    const alias = await db
      .insertInto('aliases')
      .values({ account_id: ann.accountId, email: `desk-${ann.accountId}@mailroom.test` })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    await grantPasswordAccess(db, ann.accountId, alias.email, 'desk-password');
    const desk = new Browser(ctx.app);
    await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password: 'desk-password' } });

    const asOwner = await api(desk, 'sendMessage', { body: compose(ann.email, [bob.email]) });
    expect(asOwner.status).toBe(400);
    expect(asOwner.body.error.meta.i8s).toBe('failed_validation_email_address');

    const subject = `From the desk ${Math.random()}`;
    const asAlias = await api(desk, 'sendMessage', { body: compose(alias.email, [bob.email], { subject }) });
    expect(asAlias.status).toBe(200);
    const [sent] = await folder(ann.folders.sent);
    expect(sent!.alias_id).toBe(alias.id);
    const listed = await api(desk, 'message', {
      params: { folder_id: ann.folders.sent, uid: asAlias.body.message.uid },
    });
    expect(listed.status).toBe(200);

    // The owner's own mail is not a source it may answer.
    const [ownerMail] = await folder(ann.folders.inbox);
    const reply = await api(desk, 'sendMessage', {
      body: compose(alias.email, [bob.email], {
        source: { folder_id: ann.folders.inbox, uid: ownerMail!.uid, mode: COMPOSE_MODE.REPLY },
      }),
    });
    expect(reply.status).toBe(404);

    // The owner may send as the alias too.
    expect((await api(ann.browser, 'sendMessage', { body: compose(alias.email, [bob.email]) })).status).toBe(
      200,
    );
  });
});
