import { describe, expect, it } from 'vitest';
import { apiRoutes, type Folder, type Mail, type MailListResponse } from '@mailroom/protocol';
import { Browser, createTestApp, signUpAndSignIn } from '../_util.js';
import { grantPasswordAccess } from '../../src/addresses/password-access.js';
import { composeRaw, deliverTestMessage } from '../_mail.js';
import { parseMessage, storeMessage, systemFolder } from '../../src/mailbox/index.js';
import { api, apiRequest, apiPath, OPENAPI_PATH } from '../_client.js';

const { app, db, blobs } = await createTestApp();

async function signedInUser(name: string) {
  const { browser } = await signUpAndSignIn(app, name);
  const { email } = (await apiRequest(browser, 'account')).json() as { email: string };
  const { id } = await db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const inbox = await systemFolder(db, id, 'inbox');
  const sent = await systemFolder(db, id, 'sent');
  return { browser, accountId: id, email, inbox: inbox.id, sent: sent.id };
}
type User = Awaited<ReturnType<typeof signedInUser>>;

async function newFolder(user: User, name: string): Promise<number> {
  const r = await apiRequest(user.browser, 'createFolder', { body: { folder: { parent_id: null, name } } });
  return (r.json() as { folder: Folder }).folder.id;
}
async function settings(user: User, s: Record<string, unknown>) {
  const r = await apiRequest(user.browser, 'changeSettings', { body: s });
  expect(r.statusCode).toBe(200);
}
async function list(browser: Browser, folderId: number | string, query: Record<string, unknown> = {}) {
  const r = await apiRequest(browser, 'folderMessages', { params: { folder_id: folderId }, query });
  return { status: r.statusCode, body: r.json() as MailListResponse & { error?: { meta: { i8s: string } } } };
}
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const mail = (user: User, subject: string, extra: Record<string, unknown> = {}) => ({
  from: 'Sender <sender@example.com>',
  to: user.email,
  subject,
  text: `body of ${subject}`,
  ...extra,
});

const ann = await signedInUser('Ann Lee');
const bob = await signedInUser('Bo Chen');

describe('folder pages', () => {
  it('lists newest first, pages by the per_page setting, and counts total and all', async () => {
    const folder = await newFolder(ann, 'Paging');
    for (let i = 0; i < 7; i++)
      await deliverTestMessage(db, blobs, ann.accountId, mail(ann, `m${i}`), {
        folderId: folder,
        receivedAt: minutesAgo(100 - i),
      });
    await settings(ann, { per_page: 5 });
    const first = await list(ann.browser, folder);
    expect(first.status).toBe(200);
    expect(first.body.messages.map((m) => m.subject)).toEqual(['m6', 'm5', 'm4', 'm3', 'm2']);
    expect(first.body).toMatchObject({ total: 7, all: 7 });
    expect(first.body.messages[0]).toMatchObject({
      folder_id: folder,
      flags: { seen: false, flagged: false, draft: false },
    });
    expect(first.body.messages[0]!.fields.from).toEqual([{ email: 'sender@example.com', name: 'Sender' }]);
    const second = await list(ann.browser, folder, { page: 2 });
    expect(second.body.messages.map((m) => m.subject)).toEqual(['m1', 'm0']);
    const limited = await list(ann.browser, folder, { page: 3, limit: 3 });
    expect(limited.body.messages.map((m) => m.subject)).toEqual(['m0']);
    expect((await list(ann.browser, folder, { page: 9 })).body.messages).toEqual([]);
    // A limit that is no page size (negative, zero, huge, not a number) falls back to the setting, not to nothing.
    for (const bad of ['-3', '0', '100000', 'abc', '2.5']) {
      const fallback = await list(ann.browser, folder, { limit: bad });
      expect(fallback.status, bad).toBe(200);
      expect(
        fallback.body.messages.map((m) => m.subject),
        bad,
      ).toEqual(['m6', 'm5', 'm4', 'm3', 'm2']);
    }
    await settings(ann, { per_page: 30 });
  });

  it('puts unread first when that setting is on', async () => {
    const folder = await newFolder(ann, 'Unread');
    await deliverTestMessage(db, blobs, ann.accountId, mail(ann, 'old unread'), {
      folderId: folder,
      receivedAt: minutesAgo(30),
    });
    await deliverTestMessage(db, blobs, ann.accountId, mail(ann, 'new read'), {
      folderId: folder,
      receivedAt: minutesAgo(10),
      seen: true,
    });
    await deliverTestMessage(db, blobs, ann.accountId, mail(ann, 'newest unread'), {
      folderId: folder,
      receivedAt: minutesAgo(5),
    });
    expect((await list(ann.browser, folder)).body.messages.map((m) => m.subject)).toEqual([
      'newest unread',
      'new read',
      'old unread',
    ]);
    await settings(ann, { unread_first: true });
    expect((await list(ann.browser, folder)).body.messages.map((m) => m.subject)).toEqual([
      'newest unread',
      'old unread',
      'new read',
    ]);
    await settings(ann, { unread_first: false });
  });

  it('shows one row per chain with its other members when message_thread is on', async () => {
    const folder = await newFolder(ann, 'Chains');
    const a1 = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      mail(ann, 'Trip', { messageId: '<trip-1@example.com>' }),
      { folderId: folder, receivedAt: minutesAgo(50) },
    );
    const reply = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      {
        from: ann.email,
        to: 'sender@example.com',
        subject: 'Re: Trip',
        text: 'ok',
        inReplyTo: '<trip-1@example.com>',
      },
      { folderId: ann.sent, receivedAt: minutesAgo(40), seen: true },
    );
    const a2 = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      mail(ann, 'Re: Trip', { inReplyTo: '<trip-1@example.com>' }),
      { folderId: folder, receivedAt: minutesAgo(30) },
    );
    const solo = await deliverTestMessage(db, blobs, ann.accountId, mail(ann, 'Other'), {
      folderId: folder,
      receivedAt: minutesAgo(20),
    });
    expect(a2.threadId).toBe(a1.threadId);
    expect(reply.threadId).toBe(a1.threadId);

    expect((await list(ann.browser, folder)).body).toMatchObject({ total: 3, all: 3 });
    await settings(ann, { message_thread: true });
    const { body } = await list(ann.browser, folder);
    await settings(ann, { message_thread: false });
    expect(body).toMatchObject({ total: 2, all: 3 });
    expect(body.messages.map((m) => m.id)).toEqual([solo.id, a2.id]);
    expect(body.messages[0]!.threads).toEqual([]);
    expect(body.messages[1]!.threads).toEqual([
      {
        id: reply.id,
        uid: reply.uid,
        folder_id: ann.sent,
        subject: 'Re: Trip',
        from: [{ email: ann.email.toLowerCase(), name: '' }],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        flags: { seen: true, flagged: false, draft: false },
        labels: [],
      },
      {
        id: a1.id,
        uid: a1.uid,
        folder_id: folder,
        subject: expect.any(String),
        from: expect.any(Array),
        created_at: expect.any(String),
        flags: { seen: false, flagged: false, draft: false },
        labels: [],
      },
    ]);
  });

  it('a conversation is placed by its latest message, a reply in Sent included', async () => {
    const folder = await newFolder(ann, 'Latest first');
    const put = (subject: string, minutes: number, extra: Record<string, unknown> = {}) =>
      deliverTestMessage(db, blobs, ann.accountId, mail(ann, subject, extra), {
        folderId: folder,
        receivedAt: minutesAgo(minutes),
      });
    const old = await put('Budget', 60, { messageId: '<budget-1@example.com>' });
    const newer = await put('Holidays', 30);
    await settings(ann, { message_thread: true });
    try {
      expect((await list(ann.browser, folder)).body.messages.map((m) => m.id)).toEqual([newer.id, old.id]);
      // The owner answers the old one: the reply is filed in Sent, and the conversation comes first in the folder.
      await deliverTestMessage(
        db,
        blobs,
        ann.accountId,
        {
          from: ann.email,
          to: 'sender@example.com',
          subject: 'Re: Budget',
          text: 'yes',
          inReplyTo: '<budget-1@example.com>',
        },
        { folderId: ann.sent, receivedAt: minutesAgo(1), seen: true },
      );
      const { body } = await list(ann.browser, folder);
      expect(body.messages.map((m) => m.id)).toEqual([old.id, newer.id]);
      // A draft of another answer does not move it.
      await deliverTestMessage(
        db,
        blobs,
        ann.accountId,
        { from: ann.email, to: 'sender@example.com', subject: 'Re: Holidays', text: 'draft' },
        {
          folderId: (await systemFolder(db, ann.accountId, 'draft')).id,
          receivedAt: minutesAgo(0),
          seen: true,
          draft: true,
        },
      );
      expect((await list(ann.browser, folder)).body.messages.map((m) => m.id)).toEqual([old.id, newer.id]);
    } finally {
      await settings(ann, { message_thread: false });
    }
  });

  it('the number of chains follows arrivals, moves out and in, and deletions', async () => {
    const folder = await newFolder(ann, 'Chain counts');
    const other = await newFolder(ann, 'Chain counts elsewhere');
    const put = (subject: string, extra: Record<string, unknown> = {}, folderId = folder) =>
      deliverTestMessage(db, blobs, ann.accountId, mail(ann, subject, extra), { folderId });
    const chains = async (folderId = folder) => (await list(ann.browser, folderId)).body.total;
    const move = async (uid: number, from: number, to: number) => {
      const r = await apiRequest(ann.browser, 'moveMessages', {
        body: { destination_id: to, folder_messages: [{ folder_id: from, message_uids: [uid] }] },
      });
      expect(r.statusCode).toBe(200);
    };
    await settings(ann, { message_thread: true });
    try {
      const root = await put('Plan', { messageId: '<plan-1@example.com>' });
      expect(await chains()).toBe(1);
      const reply = await put('Re: Plan', { inReplyTo: '<plan-1@example.com>' });
      expect(await chains()).toBe(1);
      const solo = await put('Lunch');
      expect(await chains()).toBe(2);
      // The chain stays while one of its messages is left, and goes with the last.
      await move(reply.uid, folder, other);
      expect([await chains(), await chains(other)]).toEqual([2, 1]);
      await move(root.uid, folder, other);
      expect([await chains(), await chains(other)]).toEqual([1, 1]);
      // Moved back in, then a chain of its own deleted.
      const back = await db
        .selectFrom('messages')
        .select('uid')
        .where('id', '=', root.id)
        .executeTakeFirstOrThrow();
      await move(back.uid, other, folder);
      expect(await chains()).toBe(2);
      const r = await apiRequest(ann.browser, 'deleteMessages', {
        body: { folder_messages: [{ folder_id: folder, message_uids: [solo.uid] }] },
      });
      expect(r.statusCode).toBe(200);
      expect(await chains()).toBe(1);
    } finally {
      await settings(ann, { message_thread: false });
    }
  });

  it('an alias view shows only mail addressed to that alias; 0 is the main address', async () => {
    const folder = await newFolder(ann, 'Aliases');
    const alias = await db
      .insertInto('aliases')
      .values({ account_id: ann.accountId, email: `shop-${ann.accountId}@mailroom.test` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const put = async (subject: string, aliasId: number | null) => {
      const raw = await composeRaw(mail(ann, subject));
      await storeMessage(db, blobs, {
        accountId: ann.accountId,
        folderId: folder,
        raw,
        parsed: await parseMessage(raw),
        aliasId,
      });
    };
    await put('to main', null);
    await put('to alias 1', alias.id);
    await put('to alias 2', alias.id);
    const byAlias = await list(ann.browser, folder, { a_id: alias.id });
    expect(byAlias.body.messages.map((m) => m.subject)).toEqual(['to alias 2', 'to alias 1']);
    expect(byAlias.body).toMatchObject({ total: 2, all: 2 });
    const main = await list(ann.browser, folder, { a_id: '0' });
    expect(main.body.messages.map((m) => m.subject)).toEqual(['to main']);
    expect(main.body).toMatchObject({ total: 1, all: 1 });
    expect((await list(ann.browser, folder, { a_id: 'all' })).body.all).toBe(3);

    const bobsAlias = await db
      .insertInto('aliases')
      .values({ account_id: bob.accountId, email: `bob-${bob.accountId}@mailroom.test` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const foreign = await list(ann.browser, folder, { a_id: bobsAlias.id });
    expect(foreign.status).toBe(404);
  });

  it("another account's folder is not found, and a folder id that is not a number is request_folder_id_error", async () => {
    await deliverTestMessage(db, blobs, bob.accountId, mail(bob, 'Bob private'));
    const foreign = await list(ann.browser, bob.inbox);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error?.meta.i8s).toBe('entity_not_found');
    expect(JSON.stringify(foreign.body)).not.toContain('Bob private');
    for (const bad of ['abc', '1.5', '-1', '0', '99999999999999999999']) {
      const r = await list(ann.browser, bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.error?.meta.i8s).toBe('request_folder_id_error');
    }
    for (const q of [{ page: '1e300' }, { page: 0 }, { a_id: -1 }, { a_id: 'x' }, { a_id: '1e300' }])
      expect((await list(ann.browser, ann.inbox, q)).status, JSON.stringify(q)).toBe(400);
  });
});

describe('opening a message', () => {
  type Opened = { status: number; body: { message: Mail; error?: { meta: { i8s: string } } } };
  async function open(
    browser: Browser,
    params: { folder_id: number | string; uid: number | string },
    query: { show_images?: 'true' | 'false' } = {},
  ): Promise<Opened> {
    return api(browser, 'message', { params, query });
  }
  /** A message by its Message-ID header (GET messages?message_id=). */
  async function openById(browser: Browser, messageId: string): Promise<Opened> {
    return api(browser, 'messageById', { query: { message_id: messageId } });
  }
  const decode = (m: Mail) => Buffer.from(m.content, 'base64').toString('utf8');

  it('gives fields, subject, flags, attachments and sanitised HTML with remote images blocked', async () => {
    const stored = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      {
        from: 'Иван Петров <ivan@example.ru>',
        to: [ann.email, 'Other <other@example.com>'],
        cc: 'cc@example.com',
        replyTo: 'reply@example.com',
        subject: 'Счёт за март',
        messageId: '<invoice-3@example.ru>',
        html: '<p onclick="steal()">Привет</p><script>alert(1)</script><img src="https://tracker.example/i.png" alt="logo"><img src="cid:logo@example.ru">',
        attachments: [
          { filename: 'invoice.pdf', content: Buffer.from('%PDF-1.4 fake'), contentType: 'application/pdf' },
          {
            filename: 'logo.png',
            content: Buffer.from('PNGDATA'),
            contentType: 'image/png',
            cid: 'logo@example.ru',
          },
        ],
      },
      { flagged: true },
    );
    const { status, body } = await open(ann.browser, { folder_id: ann.inbox, uid: stored.uid });
    expect(status).toBe(200);
    const m = body.message;
    expect(m).toMatchObject({
      id: stored.id,
      uid: stored.uid,
      folder_id: ann.inbox,
      subject: 'Счёт за март',
      flags: { seen: false, flagged: true, draft: false },
      content_type: 'text/html',
      encrypted: false,
      images_blocked: true,
      message_id: 'invoice-3@example.ru',
      threads: [],
    });
    expect(m.fields.from).toEqual([{ email: 'ivan@example.ru', name: 'Иван Петров' }]);
    expect(m.fields.to.map((a) => a.email)).toEqual([ann.email, 'other@example.com']);
    expect(m.fields.cc).toEqual([{ email: 'cc@example.com', name: '' }]);
    expect(m.fields['reply-to']).toEqual([{ email: 'reply@example.com', name: '' }]);
    expect(new Date(m.created_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const storedParts = (
      await db
        .selectFrom('messages')
        .select('attachments')
        .where('id', '=', stored.id)
        .executeTakeFirstOrThrow()
    ).attachments;
    const pdf = storedParts.find((a) => a.name === 'invoice.pdf')!;
    const logo = storedParts.find((a) => a.name === 'logo.png')!;
    // The inline logo is not listed as an attachment; it is what cid: points at.
    expect(m.attachments).toEqual([{ id: pdf.id, name: 'invoice.pdf', size: 13 }]);
    const html = decode(m);
    expect(html).toContain('<p>Привет</p>');
    expect(html).not.toMatch(/script|onclick|tracker\.example/);
    expect(html).toContain(
      `src="${apiPath('attachment', { params: { id: logo.id }, query: { message_uid: stored.uid, folder_id: ann.inbox } }).replace('&', '&amp;')}"`,
    );

    const shown = await open(ann.browser, { folder_id: ann.inbox, uid: stored.uid }, { show_images: 'true' });
    expect(shown.body.message.images_blocked).toBe(false);
    // Through the image proxy: the browser never fetches from the sender's server itself.
    expect(decode(shown.body.message)).toContain(
      `src="${apiPath('imageProxy', { query: { url: 'https://tracker.example/i.png' } })}&amp;sig=`,
    );
    // Reading does not mark it seen: the client sends the mark call.
    const row = await db
      .selectFrom('messages')
      .select('seen')
      .where('id', '=', stored.id)
      .executeTakeFirstOrThrow();
    expect(row.seen).toBe(false);
  });

  it('a plain-text message comes as text/plain', async () => {
    const stored = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      mail(ann, 'Plain', { text: 'Line <b>not html</b>' }),
    );
    const { body } = await open(ann.browser, { folder_id: ann.inbox, uid: stored.uid });
    expect(body.message.content_type).toBe('text/plain');
    expect(decode(body.message).trim()).toBe('Line <b>not html</b>');
    expect(body.message.images_blocked).toBe(false);
  });

  it('an unknown uid is message_not_found and a folder id that is not a number request_folder_id_error', async () => {
    for (const uid of [999999, 'abc', 99999999999]) {
      const r = await open(ann.browser, { folder_id: ann.inbox, uid });
      expect(r.status, String(uid)).toBe(404);
      expect(r.body.error?.meta.i8s).toBe('message_not_found');
    }
    const bad = await open(ann.browser, { folder_id: 'inbox', uid: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.meta.i8s).toBe('request_folder_id_error');
  });

  it("another account's message is never shown, by uid or by Message-ID", async () => {
    const secret = await deliverTestMessage(
      db,
      blobs,
      bob.accountId,
      mail(bob, 'Bob secret', { messageId: '<bob-secret@example.com>' }),
    );
    const byUid = await open(ann.browser, { folder_id: bob.inbox, uid: secret.uid });
    expect(byUid.status).toBe(404);
    expect(JSON.stringify(byUid.body)).not.toContain('secret');
    const byId = await openById(ann.browser, '<bob-secret@example.com>');
    expect(byId.status).toBe(404);
    expect((await openById(bob.browser, '<bob-secret@example.com>')).body.message.subject).toBe('Bob secret');
  });

  it('by Message-ID gives the newest copy', async () => {
    await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      mail(ann, 'Copy old', { messageId: '<copies@example.com>' }),
      { receivedAt: minutesAgo(60) },
    );
    const newer = await deliverTestMessage(
      db,
      blobs,
      ann.accountId,
      mail(ann, 'Copy new', { messageId: '<copies@example.com>' }),
      { folderId: ann.sent, receivedAt: minutesAgo(1) },
    );
    const { status, body } = await openById(ann.browser, 'copies@example.com');
    expect(status).toBe(200);
    expect(body.message).toMatchObject({ id: newer.id, folder_id: ann.sent, subject: 'Copy new' });
    expect((await openById(ann.browser, 'nope@example.com')).status).toBe(404);
  });
});

describe("a message's date", () => {
  it('is its own Date header unless missing or absurd; lists keep arrival order and date search follows the shown date', async () => {
    const user = await signedInUser('Dora Dates');
    const arrived = (hour: number) => new Date(Date.UTC(2026, 10, 20, hour));
    const store = async (subject: string, date: string | null, receivedAt: Date) => {
      const raw = Buffer.from(
        [
          'From: Sender <sender@example.com>',
          `To: ${user.email}`,
          `Subject: ${subject}`,
          ...(date ? [`Date: ${date}`] : []),
          'Content-Type: text/plain; charset=utf-8',
          '',
          'Body.',
          '',
        ].join('\r\n'),
      );
      await storeMessage(db, blobs, {
        accountId: user.accountId,
        folderId: user.inbox,
        raw,
        parsed: await parseMessage(raw),
        flags: { seen: false, flagged: false },
        receivedAt,
      });
    };
    await store('Written long ago', 'Sun, 15 Jan 2023 09:30:00 +0000', arrived(12));
    await store('From the future', 'Fri, 01 Jan 2100 00:00:00 +0000', arrived(11));
    await store('No date at all', null, arrived(10));
    await store('Epoch', 'Thu, 01 Jan 1970 00:00:00 +0000', arrived(9));
    await store('A little fast', 'Fri, 20 Nov 2026 08:10:00 +0000', arrived(8));

    const { body } = await list(user.browser, user.inbox);
    expect(body.messages.map((m) => [m.subject, m.created_at])).toEqual([
      ['Written long ago', '2023-01-15T09:30:00.000Z'],
      ['From the future', arrived(11).toISOString()],
      ['No date at all', arrived(10).toISOString()],
      ['Epoch', arrived(9).toISOString()],
      // A sender's clock a few minutes ahead is its own date still.
      ['A little fast', '2026-11-20T08:10:00.000Z'],
    ]);
    const [first] = body.messages;
    const opened = (
      await apiRequest(user.browser, 'message', { params: { folder_id: user.inbox, uid: first!.uid } })
    ).json() as {
      message: Mail;
    };
    expect(opened.message.created_at).toBe('2023-01-15T09:30:00.000Z');

    const search = async (since: string, before: string) => {
      const r = await apiRequest(user.browser, 'searchMessages', {
        body: { folder_id: user.inbox, date: { since, before } },
      });
      return (r.json() as MailListResponse).messages.map((m) => m.subject);
    };
    expect(await search('2023-01-15', '2023-01-15')).toEqual(['Written long ago']);
    expect(await search('2026-11-20', '2026-11-20')).toEqual([
      'From the future',
      'No date at all',
      'Epoch',
      'A little fast',
    ]);
  });
});

describe('an alias-only session (password access to one address)', () => {
  it('sees only mail to its address, in lists, when opening and for attachments, and cannot manage folders', async () => {
    // Ann's second alias (her free one is the shop's): a paid one, active.
    const alias = await db
      .insertInto('aliases')
      .values({ account_id: ann.accountId, email: `desk-${ann.accountId}@mailroom.test`, kind: 'paid' })
      .returning(['id', 'email'])
      .executeTakeFirstOrThrow();
    await grantPasswordAccess(db, ann.accountId, alias.email, 'desk-password');
    const desk = new Browser(app);
    expect(
      (await apiRequest(desk, 'passwordSignIn', { body: { email: alias.email, password: 'desk-password' } }))
        .statusCode,
    ).toBe(200);

    const folder = await newFolder(ann, 'Desk');
    const put = async (subject: string, aliasId: number | null, extra: Record<string, unknown> = {}) => {
      const raw = await composeRaw(
        mail(ann, subject, { attachments: [{ filename: 'a.txt', content: 'file of ' + subject }], ...extra }),
      );
      return (
        await storeMessage(db, blobs, {
          accountId: ann.accountId,
          folderId: folder,
          raw,
          parsed: await parseMessage(raw),
          aliasId,
        })
      ).message;
    };
    const mine = await put('for the desk', alias.id, { messageId: '<desk-1@example.com>' });
    // The owner's message answers it, so both are one chain.
    const owners = await put('owner only', null, { inReplyTo: '<desk-1@example.com>' });
    expect(owners.threadId).toBe(mine.threadId);

    for (const a_id of ['all', '0', String(alias.id)]) {
      const { body } = await list(desk, folder, { a_id });
      expect(
        body.messages.map((m) => m.subject),
        a_id,
      ).toEqual(['for the desk']);
      expect(body.all).toBe(1);
    }
    const opened = await apiRequest(desk, 'message', { params: { folder_id: folder, uid: mine.uid } });
    expect(opened.statusCode).toBe(200);
    // The chain shows only members the session may see.
    expect((opened.json() as { message: Mail }).message.threads).toEqual([]);
    const asOwner = await apiRequest(ann.browser, 'message', {
      params: { folder_id: folder, uid: mine.uid },
    });
    expect((asOwner.json() as { message: Mail }).message.threads?.map((t) => t.id)).toEqual([owners.id]);
    const hidden = await apiRequest(desk, 'message', { params: { folder_id: folder, uid: owners.uid } });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain('owner only');
    const attachmentOf = (uid: number) =>
      apiRequest(desk, 'attachment', { params: { id: 1 }, query: { message_uid: uid, folder_id: folder } });
    expect((await attachmentOf(mine.uid)).body).toBe('file of for the desk');
    expect((await attachmentOf(owners.uid)).statusCode).toBe(404);

    const create = await apiRequest(desk, 'createFolder', {
      body: { folder: { parent_id: null, name: 'Nope' } },
    });
    expect(create.statusCode).toBe(403);
    expect((await apiRequest(desk, 'deleteFolder', { params: { id: folder } })).statusCode).toBe(403);
    // Its sidebar counts only its own mail; the owner still sees both.
    const deskTree = (await apiRequest(desk, 'folders')).json() as { folders: Folder[] };
    expect(deskTree.folders.find((f) => f.id === folder)).toMatchObject({ total: 1, unread: 1 });
    expect(deskTree.folders.find((f) => f.system === 'inbox')).toMatchObject({ total: 0, unread: 0 });
    expect((await list(ann.browser, folder)).body.all).toBe(2);
    const ownerTree = (await apiRequest(ann.browser, 'folders')).json() as { folders: Folder[] };
    expect(ownerTree.folders.find((f) => f.id === folder)).toMatchObject({ total: 2 });
  });
});

describe('the OpenAPI document', () => {
  it('says what total and all count', async () => {
    const doc = JSON.stringify((await ann.browser.get(OPENAPI_PATH)).json());
    expect(doc).toContain('Rows this list pages through');
    expect(doc).toContain('Every message in the view');
    // The route as the document writes its paths: {name} for each :name.
    expect(doc).toContain(apiRoutes.folderMessages.path.replace(/:(\w+)/g, '{$1}'));
  });
});
