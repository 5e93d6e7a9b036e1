import { beforeAll, describe, expect, it } from 'vitest';
import { asMigrationDb, createTestApp } from '../_util.js';
import { mailUser, type MailUser } from '../_actions.js';
import { sql } from 'kysely';
import { up as uniqueLabelNames } from '../../src/core/db/migrations/015-unique-label-names.js';
import { api } from '../_client.js';

const ctx = await createTestApp();
let ann: MailUser;

beforeAll(async () => {
  ann = await mailUser(ctx);
});

describe('labels', () => {
  it('a new label gets the default colour and search field and is listed', async () => {
    const created = await api(ann.browser, 'createLabel', {
      body: {
        label: { name: ' Bills ', search_content: 'invoice' },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.label).toMatchObject({
      name: 'Bills',
      color: '#e66465',
      search_field: 'body',
      search_content: 'invoice',
      folder_id: null,
    });
    const { body } = await api(ann.browser, 'labels');
    expect(body.labels.map((l: { name: string }) => l.name)).toContain('Bills');
  });

  it('refuses a label without a name, a search query, or with a bad colour or field', async () => {
    const noName = await api(ann.browser, 'createLabel', {
      body: { label: { name: '  ', search_content: 'x' } },
    });
    expect(noName.body.error.meta.i8s).toBe('name_not_indicated');
    const noSearch = await api(ann.browser, 'createLabel', { body: { label: { name: 'A' } } });
    expect(noSearch.body.error.meta.i8s).toBe('search_content_not_indicated');
    for (const label of [
      { name: 'A', search_content: 'x', color: 'red' },
      { name: 'A', search_content: 'x', search_field: 'cc' },
    ]) {
      const bad = await api(ann.browser, 'createLabel', { body: { label } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.meta.i8s).toBe('invalid_request_params');
    }
  });

  it('a label name is refused when the account has it already, in any case; another account may have it', async () => {
    const dan = await mailUser(ctx, 'Dan Label');
    const travel = await api(dan.browser, 'createLabel', {
      body: {
        label: { name: 'Travel', search_content: 'trip' },
      },
    });
    expect(travel.status).toBe(200);
    for (const name of ['Travel', ' travel ', 'TRAVEL']) {
      const again = await api(dan.browser, 'createLabel', {
        body: { label: { name, search_content: 'flight' } },
      });
      expect(again.status).toBe(409);
      expect(again.body.error.meta.i8s).toBe('label_already_exist');
    }
    const other = await api(dan.browser, 'createLabel', {
      body: {
        label: { name: 'Trips', search_content: 'x' },
      },
    });
    const renamed = await api(dan.browser, 'updateLabel', {
      params: { id: other.body.label.id },
      body: {
        label: { name: 'travel' },
      },
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error.meta.i8s).toBe('label_already_exist');
    // A label keeps its own name in another case, and another account may use the name.
    const recased = await api(dan.browser, 'updateLabel', {
      params: { id: travel.body.label.id },
      body: {
        label: { name: 'TRAVEL' },
      },
    });
    expect(recased.body.label.name).toBe('TRAVEL');
    const bob = await mailUser(ctx, 'Bob Label');
    expect(
      (await api(bob.browser, 'createLabel', { body: { label: { name: 'Travel', search_content: 'x' } } }))
        .status,
    ).toBe(200);
  });

  it('labels named alike before names were unique are told apart by the migration that makes them unique', async () => {
    const carol = await mailUser(ctx, 'Carol Label');
    await sql`drop index labels_account_name`.execute(ctx.db);
    for (const name of ['Work', 'work', 'Work (2)', 'Home'])
      await ctx.db
        .insertInto('labels')
        .values({ account_id: carol.accountId, name, search_content: 'x' })
        .execute();
    await uniqueLabelNames(asMigrationDb(ctx.db));
    const { body } = await api(carol.browser, 'labels');
    expect(body.labels.map((l: { name: string }) => l.name).sort()).toEqual([
      'Home',
      'Work',
      'Work (2)',
      'work (3)',
    ]);
    const again = await api(carol.browser, 'createLabel', {
      body: {
        label: { name: 'WORK', search_content: 'x' },
      },
    });
    expect(again.body.error.meta.i8s).toBe('label_already_exist');
  });

  it('an update changes only the fields given; a folder must be the caller own', async () => {
    const { body } = await api(ann.browser, 'createLabel', {
      body: {
        label: { name: 'Work', search_content: 'report' },
      },
    });
    const id = body.label.id;
    const updated = await api(ann.browser, 'updateLabel', {
      params: { id },
      body: {
        label: { color: '#00FF00', search_field: 'subject', folder_id: ann.folders.inbox },
      },
    });
    expect(updated.body.label).toMatchObject({
      name: 'Work',
      color: '#00ff00',
      search_field: 'subject',
      folder_id: ann.folders.inbox,
    });
    const wrongFolder = await api(ann.browser, 'updateLabel', {
      params: { id },
      body: { label: { folder_id: 999_999 } },
    });
    expect(wrongFolder.status).toBe(404);
    expect(
      (await api(ann.browser, 'updateLabel', { params: { id: 999999 }, body: { label: { name: 'x' } } }))
        .status,
    ).toBe(404);
  });

  it("a label's list shows messages carrying it and those its saved search finds", async () => {
    const { body } = await api(ann.browser, 'createLabel', {
      body: {
        label: { name: 'Payments', search_field: 'subject', search_content: 'платёж' },
      },
    });
    const labelId = body.label.id;
    const tagged = await ann.deliver({ from: 'a@example.com', subject: 'Tagged by hand', text: 'x' });
    await ann.deliver({ from: 'b@example.com', subject: 'Платежи октябрь', text: 'y' });
    await ann.deliver({ from: 'c@example.com', subject: 'Other', text: 'платеж in body only' });
    await api(ann.browser, 'markMessages', {
      body: {
        flag: 'label',
        label_id: labelId,
        folder_messages: [{ folder_id: tagged.folderId, message_uids: [tagged.uid] }],
      },
    });
    const list = await api(ann.browser, 'labelMessages', {
      params: { label_id: labelId },
      query: { a_id: 'all', page: 1 },
    });
    expect(list.status).toBe(200);
    expect(list.body.messages.map((m: { subject: string }) => m.subject).sort()).toEqual([
      'Tagged by hand',
      'Платежи октябрь',
    ]);
    expect(list.body).toMatchObject({ total: 2, all: 2 });
    expect(
      list.body.messages.find((m: { subject: string }) => m.subject === 'Tagged by hand').labels,
    ).toEqual([labelId]);

    // Limited to its folder: the saved search no longer sees the Inbox.
    await api(ann.browser, 'updateLabel', {
      params: { id: labelId },
      body: { label: { folder_id: ann.folders.sent } },
    });
    const narrowed = await api(ann.browser, 'labelMessages', { params: { label_id: labelId } });
    expect(narrowed.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['Tagged by hand']);
  });

  it('a message its saved search finds shows the label in the folder list, in search results and when opened', async () => {
    const { body } = await api(ann.browser, 'createLabel', {
      body: {
        label: { name: 'Receipts', search_field: 'subject', search_content: 'receipt' },
      },
    });
    const labelId: number = body.label.id;
    const found = await ann.deliver({ from: 'shop@example.com', subject: 'Your receipt 42', text: 'thanks' });
    const other = await ann.deliver({
      from: 'news@example.com',
      subject: 'Weekly news',
      text: 'receipt inside',
    });
    const labelsOf = (messages: { uid: number; labels: number[] }[], uid: number) =>
      messages.find((m) => m.uid === uid)?.labels;

    const list = await api(ann.browser, 'folderMessages', {
      params: { folder_id: found.folderId },
      query: { a_id: 'all', page: 1, limit: 100 },
    });
    expect(labelsOf(list.body.messages, found.uid)).toContain(labelId);
    expect(labelsOf(list.body.messages, other.uid)).not.toContain(labelId);

    const search = await api(ann.browser, 'searchMessages', { body: { subject: 'receipt' } });
    expect(search.status).toBe(200);
    expect(labelsOf(search.body.messages, found.uid)).toContain(labelId);

    const opened = await api(ann.browser, 'message', {
      params: { folder_id: found.folderId, uid: found.uid },
    });
    expect(opened.body.message.labels).toEqual([labelId]);
  });

  it('deleting a label takes it off every message and announces the change', async () => {
    const { body } = await api(ann.browser, 'createLabel', {
      body: {
        label: { name: 'Temp', search_content: 'zzz' },
      },
    });
    const labelId = body.label.id;
    const m = await ann.deliver({ from: 'a@example.com', subject: 'Keep me', text: 'x' });
    await api(ann.browser, 'markMessages', {
      body: {
        flag: 'label',
        label_id: labelId,
        folder_messages: [{ folder_id: m.folderId, message_uids: [m.uid] }],
      },
    });
    const seen: unknown[] = [];
    const stop = ctx.events.subscribe(ann.accountId, (e) => seen.push(e));
    const deleted = await api(ann.browser, 'deleteLabel', { params: { id: labelId } });
    stop();
    expect(deleted.body).toEqual({ ok: true });
    const row = await ctx.db
      .selectFrom('messages')
      .select('labels')
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row.labels).toEqual([]);
    expect(seen).toContainEqual({ event: 'store', folder_id: m.folderId, uids: [m.uid] });
    expect((await api(ann.browser, 'deleteLabel', { params: { id: labelId } })).status).toBe(404);
    expect((await api(ann.browser, 'labelMessages', { params: { label_id: labelId } })).status).toBe(404);
  });
});
