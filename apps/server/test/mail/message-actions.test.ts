import { beforeAll, describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { counters, mailUser, type MailUser } from '../_actions.js';
import { api } from '../_client.js';

const ctx = await createTestApp();
let ann: MailUser;

beforeAll(async () => {
  ann = await mailUser(ctx);
});

/** Events the account receives while `fn` runs. */
async function eventsDuring(fn: () => Promise<unknown>): Promise<MailEvent[]> {
  const seen: MailEvent[] = [];
  const stop = ctx.events.subscribe(ann.accountId, (e) => seen.push(e));
  try {
    await fn();
  } finally {
    stop();
  }
  return seen;
}

async function newFolder(name: string) {
  const row = await ctx.db
    .insertInto('folders')
    .values({ account_id: ann.accountId, name: `INBOX.${name}`, system: null, uidvalidity: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const message = (id: number) =>
  ctx.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('marking messages', () => {
  it('seen and unseen keep the unread counter true and announce store and updateMailbox', async () => {
    const a = await ann.deliver({ from: 'x@example.com', subject: 'a', text: 'a' });
    const b = await ann.deliver({ from: 'x@example.com', subject: 'b', text: 'b' });
    const folder_messages = [{ folder_id: ann.folders.inbox, message_uids: [a.uid, b.uid, 999_999] }];
    let response;
    const events = await eventsDuring(async () => {
      response = await api(ann.browser, 'markMessages', { body: { flag: 'seen', folder_messages } });
    });
    expect(response!).toMatchObject({
      status: 200,
      body: { ok: true, marked: [{ folder_id: ann.folders.inbox, message_uids: [a.uid, b.uid] }] },
    });
    const c = await counters(ctx, ann.folders.inbox);
    expect(c.stored).toEqual(c.truth);
    expect(events).toContainEqual({ event: 'store', folder_id: ann.folders.inbox, uids: [a.uid, b.uid] });
    expect(events).toContainEqual({
      event: 'updateMailbox',
      folder_id: ann.folders.inbox,
      ...{ unseen: c.stored.unread, total: c.stored.total },
    });

    // Marking again changes nothing and counts nothing twice.
    const again = await api(ann.browser, 'markMessages', { body: { flag: 'seen', folder_messages } });
    expect(again.body.marked).toEqual([]);
    await api(ann.browser, 'markMessages', { body: { flag: 'unseen', folder_messages } });
    const after = await counters(ctx, ann.folders.inbox);
    expect(after.stored).toEqual(after.truth);
    expect(after.stored.unread).toBe(c.stored.unread + 2);
  });

  it('flagged, and label and unlabel by label_id', async () => {
    const m = await ann.deliver({ from: 'x@example.com', subject: 'flag me', text: 'a' });
    const folder_messages = [{ folder_id: m.folderId, message_uids: [m.uid] }];
    await api(ann.browser, 'markMessages', { body: { flag: 'flagged', folder_messages } });
    expect((await message(m.id)).flagged).toBe(true);
    const { body } = await api(ann.browser, 'createLabel', {
      body: { label: { name: 'L', search_content: 'q' } },
    });
    await api(ann.browser, 'markMessages', {
      body: {
        flag: 'label',
        label_id: body.label.id,
        folder_messages,
      },
    });
    await api(ann.browser, 'markMessages', {
      body: {
        flag: 'label',
        label_id: body.label.id,
        folder_messages,
      },
    });
    expect((await message(m.id)).labels).toEqual([body.label.id]);
    await api(ann.browser, 'markMessages', {
      body: {
        flag: 'unlabel',
        label_id: body.label.id,
        folder_messages,
      },
    });
    expect((await message(m.id)).labels).toEqual([]);
    await api(ann.browser, 'markMessages', { body: { flag: 'unflagged', folder_messages } });
    expect((await message(m.id)).flagged).toBe(false);
    const noLabel = await api(ann.browser, 'markMessages', { body: { flag: 'label', folder_messages } });
    expect(noLabel.body.error.meta.i8s).toBe('request_label_id_error');
    const bad = await api(ann.browser, 'markMessages', { body: { flag: 'sparkly', folder_messages } });
    expect(bad.status).toBe(400);
  });
});

describe('moving messages', () => {
  it('a moved message gets a new UID in the destination and keeps its flags and labels', async () => {
    const target = await newFolder('Projects');
    const m = await ann.deliver({ from: 'x@example.com', subject: 'move me', text: 'a' }, { flagged: true });
    await api(ann.browser, 'markMessages', {
      body: {
        flag: 'seen',
        folder_messages: [{ folder_id: m.folderId, message_uids: [m.uid] }],
      },
    });
    const before = await counters(ctx, target);
    let response;
    const events = await eventsDuring(async () => {
      response = await api(ann.browser, 'moveMessages', {
        body: {
          destination_id: target,
          folder_messages: [{ folder_id: m.folderId, message_uids: [m.uid] }],
        },
      });
    });
    const moved = await message(m.id);
    expect(moved).toMatchObject({ folder_id: target, uid: before.uidnext, flagged: true, seen: true });
    expect(response!).toMatchObject({
      status: 200,
      body: {
        ok: true,
        moved: [
          { folder_id: m.folderId, uid: m.uid, destination_id: target, destination_uid: before.uidnext },
        ],
      },
    });
    expect(events).toContainEqual({
      event: 'move',
      folder_id: m.folderId,
      to_folder_id: target,
      uids: [m.uid],
    });
    expect(events).toContainEqual({ event: 'new', folder_id: target, uids: [before.uidnext] });
    expect(
      events
        .filter((e) => e.event === 'updateMailbox')
        .map((e) => e.folder_id)
        .sort(),
    ).toEqual([m.folderId, target].sort());
    for (const folder of [m.folderId, target]) {
      const c = await counters(ctx, folder);
      expect(c.stored).toEqual(c.truth);
    }
    // Moving it back gives yet another UID: UIDs are never reused.
    await api(ann.browser, 'moveMessages', {
      body: {
        destination_id: m.folderId,
        folder_messages: [{ folder_id: target, message_uids: [moved.uid] }],
      },
    });
    expect((await message(m.id)).uid).toBeGreaterThan(m.uid);
  });

  it('moving to an unknown folder is not found and changes nothing', async () => {
    const m = await ann.deliver({ from: 'x@example.com', subject: 'stay', text: 'a' });
    const r = await api(ann.browser, 'moveMessages', {
      body: {
        destination_id: 999_999,
        folder_messages: [{ folder_id: m.folderId, message_uids: [m.uid] }],
      },
    });
    expect(r.status).toBe(404);
    expect((await message(m.id)).folder_id).toBe(m.folderId);
  });
});

describe('deleting messages', () => {
  it('goes to Trash first, then for good with the quota given back', async () => {
    const m = await ann.deliver({ from: 'x@example.com', subject: 'bin me', text: 'a' });
    const quota = async () =>
      (
        await ctx.db
          .selectFrom('accounts')
          .select('quota_used_bytes')
          .where('id', '=', ann.accountId)
          .executeTakeFirstOrThrow()
      ).quota_used_bytes;
    const usedBefore = await quota();
    const first = await api(ann.browser, 'deleteMessages', {
      body: {
        folder_messages: [{ folder_id: m.folderId, message_uids: [m.uid] }],
      },
    });
    expect(first.body.moved[0]).toMatchObject({ folder_id: m.folderId, destination_id: ann.folders.trash });
    const inTrash = await message(m.id);
    expect(inTrash.folder_id).toBe(ann.folders.trash);
    expect(await quota()).toBe(usedBefore);

    const events = await eventsDuring(async () => {
      const second = await api(ann.browser, 'deleteMessages', {
        body: {
          folder_messages: [{ folder_id: ann.folders.trash, message_uids: [inTrash.uid] }],
        },
      });
      expect(second.body.deleted).toEqual([{ folder_id: ann.folders.trash, message_uids: [inTrash.uid] }]);
    });
    expect(
      await ctx.db.selectFrom('messages').select('id').where('id', '=', m.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await quota()).toBe(usedBefore - inTrash.size);
    expect(events).toContainEqual({
      event: 'move',
      folder_id: ann.folders.trash,
      to_folder_id: null,
      uids: [inTrash.uid],
    });
    const c = await counters(ctx, ann.folders.trash);
    expect(c.stored).toEqual(c.truth);
  });

  it('emptying works on Trash and Junk only', async () => {
    await ann.deliver(
      { from: 'x@example.com', subject: 'spam 1', text: 'a' },
      { folderId: ann.folders.junk },
    );
    await ann.deliver(
      { from: 'x@example.com', subject: 'spam 2', text: 'a' },
      { folderId: ann.folders.junk },
    );
    const r = await api(ann.browser, 'emptyFolder', { body: { folder_id: ann.folders.junk } });
    expect(r.status).toBe(200);
    expect(r.body.deleted[0].message_uids).toHaveLength(2);
    const c = await counters(ctx, ann.folders.junk);
    expect(c.stored).toEqual({ unread: 0, total: 0 });
    expect(c.truth).toEqual({ unread: 0, total: 0 });
    const inbox = await api(ann.browser, 'emptyFolder', { body: { folder_id: ann.folders.inbox } });
    expect(inbox.status).toBe(403);
    expect(inbox.body.error.meta.i8s).toBe('forbidden');
  });
});

describe('bulk actions', () => {
  it('act on every message of the folder, across pages, not just one page', async () => {
    const folder = await newFolder('Bulk');
    for (let i = 0; i < 45; i++)
      await ann.deliver({ from: 'n@example.com', subject: `bulk ${i}`, text: 'bulk' }, { folderId: folder });
    const request = { folder_id: folder, page: 1, limit: 20 };
    const got = await api(ann.browser, 'bulkAction', { body: { request_type: 'get', request } });
    expect(got.body.folder_messages).toHaveLength(1);
    expect(got.body.folder_messages[0].message_uids).toHaveLength(45);

    await api(ann.browser, 'bulkAction', {
      body: {
        request_type: 'mark',
        request_params: { flag: 'seen' },
        request,
      },
    });
    expect((await counters(ctx, folder)).stored.unread).toBe(0);

    const archive = await newFolder('Archive');
    const moved = await api(ann.browser, 'bulkAction', {
      body: {
        request_type: 'move',
        request_params: { destination_id: archive },
        request,
      },
    });
    expect(moved.body.moved).toHaveLength(45);
    expect((await counters(ctx, folder)).truth.total).toBe(0);
    const a = await counters(ctx, archive);
    expect(a.stored).toEqual({ unread: 0, total: 45 });
    expect(a.truth).toEqual(a.stored);
  });

  it('search/mark, search/move and search/delete act on every match', async () => {
    const folder = await newFolder('Found');
    for (let i = 0; i < 25; i++)
      await ann.deliver(
        { from: 'shop@example.com', subject: `Квитанция ${i}`, text: 'оплата' },
        { folderId: folder },
      );
    await ann.deliver({ from: 'friend@example.com', subject: 'Hi', text: 'hello' }, { folderId: folder });
    const request = { text: 'квитанц', folder_id: folder };
    const marked = await api(ann.browser, 'searchMark', { body: { request, flag: 'flagged' } });
    expect(marked.body.marked[0].message_uids).toHaveLength(25);
    const dest = await newFolder('Receipts');
    const moved = await api(ann.browser, 'searchMove', { body: { request, destination_id: dest } });
    expect(moved.body.moved).toHaveLength(25);
    const deleted = await api(ann.browser, 'searchDelete', {
      body: {
        request: { text: 'квитанц', folder_id: dest },
      },
    });
    expect(deleted.body.moved).toHaveLength(25);
    expect(deleted.body.moved[0].destination_id).toBe(ann.folders.trash);
    expect((await counters(ctx, folder)).truth.total).toBe(1);
  });

  it('a request that narrows nothing is refused rather than taken as the whole mailbox', async () => {
    const r = await api(ann.browser, 'searchDelete', { body: { request: {} } });
    expect(r.status).toBe(400);
    const noDest = await api(ann.browser, 'bulkAction', {
      body: {
        request_type: 'move',
        request: { folder_id: ann.folders.inbox },
      },
    });
    expect(noDest.status).toBe(400);
  });
});
