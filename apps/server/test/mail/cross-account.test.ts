import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { api } from '../_client.js';

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
    await api(bob.browser, 'createLabel', { body: { label: { name: 'Bob', search_content: 'zanzibar' } } })
  ).body.label.id;
});

describe("another account's ids", () => {
  it('labels: never listed, never changed, never deleted, never a list', async () => {
    const before = await snapshot();
    expect((await api(ann.browser, 'labels')).body.labels).toEqual([]);
    const tries = [
      await api(ann.browser, 'updateLabel', {
        params: { id: bobLabel },
        body: { label: { name: 'mine now' } },
      }),
      await api(ann.browser, 'deleteLabel', { params: { id: bobLabel } }),
      await api(ann.browser, 'labelMessages', { params: { label_id: bobLabel } }),
      await api(ann.browser, 'createLabel', {
        body: {
          label: { name: 'x', search_content: 'y', folder_id: bob.folders.inbox },
        },
      }),
    ];
    for (const t of tries) {
      expect(t.status).toBe(404);
      expect(t.body.error.meta.i8s).toBe('entity_not_found');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('search: never finds their mail, refuses their folder and label', async () => {
    const found = await api(ann.browser, 'searchMessages', { body: { text: 'zanzibar' } });
    expect(found.body).toMatchObject({ messages: [], total: 0 });
    const byFrom = await api(ann.browser, 'searchMessages', { body: { from: 'x@example.com' } });
    expect(byFrom.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['Ann’s own']);
    for (const body of [{ folder_id: bob.folders.inbox }, { label_id: bobLabel }]) {
      const r = await api(ann.browser, 'searchMessages', { body: body });
      expect(r.status).toBe(404);
    }
  });

  it('mark, move, delete and empty: refused or without effect on their messages', async () => {
    const before = await snapshot();
    const theirs = [{ folder_id: bob.folders.inbox, message_uids: [bobMessage.uid] }];
    // Their uid named in our own folder touches only our own message of that uid, if any.
    const ownFolderTheirUid = [{ folder_id: ann.folders.junk, message_uids: [bobMessage.uid] }];
    const refused = [
      await api(ann.browser, 'markMessages', { body: { flag: 'seen', folder_messages: theirs } }),
      await api(ann.browser, 'markMessages', {
        body: {
          flag: 'label',
          label_id: bobLabel,
          folder_messages: [{ folder_id: ann.folders.inbox, message_uids: [1] }],
        },
      }),
      await api(ann.browser, 'moveMessages', {
        body: {
          destination_id: ann.folders.inbox,
          folder_messages: theirs,
        },
      }),
      await api(ann.browser, 'moveMessages', {
        body: {
          destination_id: bob.folders.inbox,
          folder_messages: [{ folder_id: ann.folders.inbox, message_uids: [1] }],
        },
      }),
      await api(ann.browser, 'deleteMessages', { body: { folder_messages: theirs } }),
      await api(ann.browser, 'emptyFolder', { body: { folder_id: bob.folders.junk } }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(404);
      expect(r.body.error.meta.i8s).toBe('entity_not_found');
    }
    for (const flag of ['seen', 'flagged'])
      expect(
        (await api(ann.browser, 'markMessages', { body: { flag, folder_messages: ownFolderTheirUid } }))
          .status,
      ).toBe(200);
    expect(
      (await api(ann.browser, 'deleteMessages', { body: { folder_messages: ownFolderTheirUid } })).status,
    ).toBe(200);
    expect((await api(ann.browser, 'emptyFolder', { body: { folder_id: ann.folders.junk } })).status).toBe(
      200,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('bulk and search actions: refused for their folder or label, and never reach their mail', async () => {
    const before = await snapshot();
    const refused = [
      await api(ann.browser, 'bulkAction', {
        body: {
          request_type: 'get',
          request: { folder_id: bob.folders.inbox },
        },
      }),
      await api(ann.browser, 'bulkAction', {
        body: {
          request_type: 'move',
          request_params: { destination_id: bob.folders.inbox },
          request: { folder_id: ann.folders.inbox },
        },
      }),
      await api(ann.browser, 'bulkAction', {
        body: {
          request_type: 'mark',
          request_params: { flag: 'label', label_id: bobLabel },
          request: { folder_id: ann.folders.inbox },
        },
      }),
      await api(ann.browser, 'searchDelete', { body: { request: { label_id: bobLabel } } }),
      await api(ann.browser, 'searchMove', {
        body: {
          request: { text: 'ordinary' },
          destination_id: bob.folders.trash,
        },
      }),
      await api(ann.browser, 'searchMark', {
        body: {
          request: { folder_id: bob.folders.inbox },
          flag: 'seen',
        },
      }),
    ];
    for (const r of refused) expect(r.status).toBe(404);
    const mine = await api(ann.browser, 'searchDelete', { body: { request: { text: 'zanzibar' } } });
    expect(mine.body).toEqual({ ok: true, deleted: [], moved: [] });
    const got = await api(ann.browser, 'bulkAction', {
      body: {
        request_type: 'get',
        request: { text: 'zanzibar' },
      },
    });
    expect(got.body.folder_messages).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
