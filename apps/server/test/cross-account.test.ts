import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './_util.js';
import { call, mailUser, type MailUser } from './_actions.js';

const ctx = await createTestApp();
let ann: MailUser;
let bob: MailUser;
let bobLabel: number;
let bobMessage: { id: number; uid: number; folderId: number };

const snapshot = async () => ({
  messages: await ctx.db
    .selectFrom('messages')
    .select(['id', 'folder_id', 'uid', 'seen', 'flagged', 'labels'])
    .where('account_id', '=', bob.accountId)
    .orderBy('id')
    .execute(),
  labels: await ctx.db.selectFrom('labels').selectAll().where('account_id', '=', bob.accountId).execute(),
  folders: await ctx.db
    .selectFrom('folders')
    .selectAll()
    .where('account_id', '=', bob.accountId)
    .orderBy('id')
    .execute(),
});

beforeAll(async () => {
  ann = await mailUser(ctx, 'Ann Lee');
  bob = await mailUser(ctx, 'Bob Chen');
  await ann.deliver({ from: 'x@example.com', subject: 'Ann’s own', text: 'ordinary' });
  bobMessage = await bob.deliver({ from: 'x@example.com', subject: 'Bob secret', text: 'zanzibar treasure' });
  await bob.deliver(
    { from: 'x@example.com', subject: 'Bob junk', text: 'zanzibar' },
    { folderId: bob.folders.junk },
  );
  bobLabel = (
    await call(bob.browser, 'POST', 'labels', { label: { name: 'Bob', search_content: 'zanzibar' } })
  ).body.label.id;
});

describe("another account's ids", () => {
  it('labels: never listed, never changed, never deleted, never a list', async () => {
    const before = await snapshot();
    expect((await call(ann.browser, 'GET', 'labels')).body.labels).toEqual([]);
    const tries = [
      await call(ann.browser, 'POST', `labels/${bobLabel}`, { label: { name: 'mine now' } }),
      await call(ann.browser, 'DELETE', `labels/${bobLabel}`),
      await call(ann.browser, 'GET', `messages/label/${bobLabel}`),
      await call(ann.browser, 'POST', 'labels', {
        label: { name: 'x', search_content: 'y', folder_id: bob.folders.inbox },
      }),
    ];
    for (const t of tries) {
      expect(t.status).toBe(404);
      expect(t.body.error.meta.i8s).toBe('entity_not_found');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('search: never finds their mail, refuses their folder and label', async () => {
    const found = await call(ann.browser, 'POST', 'messages/search', { text: 'zanzibar' });
    expect(found.body).toMatchObject({ messages: [], total: 0 });
    const byFrom = await call(ann.browser, 'POST', 'messages/search', { from: 'x@example.com' });
    expect(byFrom.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['Ann’s own']);
    for (const body of [{ folder_id: bob.folders.inbox }, { label_id: bobLabel }]) {
      const r = await call(ann.browser, 'POST', 'messages/search', body);
      expect(r.status).toBe(404);
    }
  });

  it('mark, move, delete and empty: refused or without effect on their messages', async () => {
    const before = await snapshot();
    const theirs = [{ folder_id: bob.folders.inbox, message_uids: [bobMessage.uid] }];
    // Their uid named in our own folder touches only our own message of that uid, if any.
    const ownFolderTheirUid = [{ folder_id: ann.folders.junk, message_uids: [bobMessage.uid] }];
    const refused = [
      await call(ann.browser, 'POST', 'messages/mark', { flag: 'seen', folder_messages: theirs }),
      await call(ann.browser, 'POST', 'messages/mark', {
        flag: 'label',
        label_id: bobLabel,
        folder_messages: [{ folder_id: ann.folders.inbox, message_uids: [1] }],
      }),
      await call(ann.browser, 'POST', 'messages/move', {
        destination_id: ann.folders.inbox,
        folder_messages: theirs,
      }),
      await call(ann.browser, 'POST', 'messages/move', {
        destination_id: bob.folders.inbox,
        folder_messages: [{ folder_id: ann.folders.inbox, message_uids: [1] }],
      }),
      await call(ann.browser, 'POST', 'messages/delete', { folder_messages: theirs }),
      await call(ann.browser, 'POST', 'messages/empty', { folder_id: bob.folders.junk }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(404);
      expect(r.body.error.meta.i8s).toBe('entity_not_found');
    }
    for (const flag of ['seen', 'flagged'])
      expect(
        (await call(ann.browser, 'POST', 'messages/mark', { flag, folder_messages: ownFolderTheirUid }))
          .status,
      ).toBe(200);
    expect(
      (await call(ann.browser, 'POST', 'messages/delete', { folder_messages: ownFolderTheirUid })).status,
    ).toBe(200);
    expect((await call(ann.browser, 'POST', 'messages/empty', { folder_id: ann.folders.junk })).status).toBe(
      200,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('bulk and search actions: refused for their folder or label, and never reach their mail', async () => {
    const before = await snapshot();
    const refused = [
      await call(ann.browser, 'POST', 'messages/bulk', {
        request_type: 'get',
        request: { folder_id: bob.folders.inbox },
      }),
      await call(ann.browser, 'POST', 'messages/bulk', {
        request_type: 'move',
        request_params: { destination_id: bob.folders.inbox },
        request: { folder_id: ann.folders.inbox },
      }),
      await call(ann.browser, 'POST', 'messages/bulk', {
        request_type: 'mark',
        request_params: { flag: 'label', label_id: bobLabel },
        request: { folder_id: ann.folders.inbox },
      }),
      await call(ann.browser, 'POST', 'messages/search/delete', { request: { label_id: bobLabel } }),
      await call(ann.browser, 'POST', 'messages/search/move', {
        request: { text: 'ordinary' },
        destination_id: bob.folders.trash,
      }),
      await call(ann.browser, 'POST', 'messages/search/mark', {
        request: { folder_id: bob.folders.inbox },
        flag: 'seen',
      }),
    ];
    for (const r of refused) expect(r.status).toBe(404);
    const mine = await call(ann.browser, 'POST', 'messages/search/delete', { request: { text: 'zanzibar' } });
    expect(mine.body).toEqual({ ok: true, deleted: [], moved: [] });
    const got = await call(ann.browser, 'POST', 'messages/bulk', {
      request_type: 'get',
      request: { text: 'zanzibar' },
    });
    expect(got.body.folder_messages).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
