import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './_util.js';
import { call, mailUser, type MailUser } from './_actions.js';
import { sql } from 'kysely';
import { up as uniqueLabelNames } from '../src/core/db/migrations/015-unique-label-names.js';

const ctx = await createTestApp();
let ann: MailUser;

beforeAll(async () => {
  ann = await mailUser(ctx);
});

describe('labels', () => {
  it('a new label gets the default colour and search field and is listed', async () => {
    const created = await call(ann.browser, 'POST', 'labels', {
      label: { name: ' Bills ', search_content: 'invoice' },
    });
    expect(created.status).toBe(200);
    expect(created.body.label).toMatchObject({
      name: 'Bills',
      color: '#e66465',
      search_field: 'body',
      search_content: 'invoice',
      folder_id: null,
    });
    const { body } = await call(ann.browser, 'GET', 'labels');
    expect(body.labels.map((l: { name: string }) => l.name)).toContain('Bills');
  });

  it('refuses a label without a name, a search query, or with a bad colour or field', async () => {
    const noName = await call(ann.browser, 'POST', 'labels', { label: { name: '  ', search_content: 'x' } });
    expect(noName.body.error.meta.i8s).toBe('name_not_indicated');
    const noSearch = await call(ann.browser, 'POST', 'labels', { label: { name: 'A' } });
    expect(noSearch.body.error.meta.i8s).toBe('search_content_not_indicated');
    for (const label of [
      { name: 'A', search_content: 'x', color: 'red' },
      { name: 'A', search_content: 'x', search_field: 'cc' },
    ]) {
      const bad = await call(ann.browser, 'POST', 'labels', { label });
      expect(bad.status).toBe(400);
      expect(bad.body.error.meta.i8s).toBe('invalid_request_params');
    }
  });

  it('a label name is refused when the account has it already, in any case; another account may have it', async () => {
    const dan = await mailUser(ctx, 'Dan Label');
    const travel = await call(dan.browser, 'POST', 'labels', {
      label: { name: 'Travel', search_content: 'trip' },
    });
    expect(travel.status).toBe(200);
    for (const name of ['Travel', ' travel ', 'TRAVEL']) {
      const again = await call(dan.browser, 'POST', 'labels', { label: { name, search_content: 'flight' } });
      expect(again.status).toBe(409);
      expect(again.body.error.meta.i8s).toBe('label_already_exist');
    }
    const other = await call(dan.browser, 'POST', 'labels', {
      label: { name: 'Trips', search_content: 'x' },
    });
    const renamed = await call(dan.browser, 'POST', `labels/${other.body.label.id}`, {
      label: { name: 'travel' },
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error.meta.i8s).toBe('label_already_exist');
    // A label keeps its own name in another case, and another account may use the name.
    const recased = await call(dan.browser, 'POST', `labels/${travel.body.label.id}`, {
      label: { name: 'TRAVEL' },
    });
    expect(recased.body.label.name).toBe('TRAVEL');
    const bob = await mailUser(ctx, 'Bob Label');
    expect(
      (await call(bob.browser, 'POST', 'labels', { label: { name: 'Travel', search_content: 'x' } })).status,
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
    await uniqueLabelNames(ctx.db);
    const { body } = await call(carol.browser, 'GET', 'labels');
    expect(body.labels.map((l: { name: string }) => l.name).sort()).toEqual([
      'Home',
      'Work',
      'Work (2)',
      'work (3)',
    ]);
    const again = await call(carol.browser, 'POST', 'labels', {
      label: { name: 'WORK', search_content: 'x' },
    });
    expect(again.body.error.meta.i8s).toBe('label_already_exist');
  });

  it('an update changes only the fields given; a folder must be the caller own', async () => {
    const { body } = await call(ann.browser, 'POST', 'labels', {
      label: { name: 'Work', search_content: 'report' },
    });
    const id = body.label.id;
    const updated = await call(ann.browser, 'POST', `labels/${id}`, {
      label: { color: '#00FF00', search_field: 'subject', folder_id: ann.folders.inbox },
    });
    expect(updated.body.label).toMatchObject({
      name: 'Work',
      color: '#00ff00',
      search_field: 'subject',
      folder_id: ann.folders.inbox,
    });
    const wrongFolder = await call(ann.browser, 'POST', `labels/${id}`, { label: { folder_id: 999_999 } });
    expect(wrongFolder.status).toBe(404);
    expect((await call(ann.browser, 'POST', 'labels/999999', { label: { name: 'x' } })).status).toBe(404);
  });

  it("a label's list shows messages carrying it and those its saved search finds", async () => {
    const { body } = await call(ann.browser, 'POST', 'labels', {
      label: { name: 'Payments', search_field: 'subject', search_content: 'платёж' },
    });
    const labelId = body.label.id;
    const tagged = await ann.deliver({ from: 'a@example.com', subject: 'Tagged by hand', text: 'x' });
    await ann.deliver({ from: 'b@example.com', subject: 'Платежи октябрь', text: 'y' });
    await ann.deliver({ from: 'c@example.com', subject: 'Other', text: 'платеж in body only' });
    await call(ann.browser, 'POST', 'messages/mark', {
      flag: 'label',
      label_id: labelId,
      folder_messages: [{ folder_id: tagged.folderId, message_uids: [tagged.uid] }],
    });
    const list = await call(ann.browser, 'GET', `messages/label/${labelId}?a_id=all&page=1`);
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
    await call(ann.browser, 'POST', `labels/${labelId}`, { label: { folder_id: ann.folders.sent } });
    const narrowed = await call(ann.browser, 'GET', `messages/label/${labelId}`);
    expect(narrowed.body.messages.map((m: { subject: string }) => m.subject)).toEqual(['Tagged by hand']);
  });

  it('a message its saved search finds shows the label in the folder list, in search results and when opened', async () => {
    const { body } = await call(ann.browser, 'POST', 'labels', {
      label: { name: 'Receipts', search_field: 'subject', search_content: 'receipt' },
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

    const list = await call(
      ann.browser,
      'GET',
      `messages/folder/${found.folderId}?a_id=all&page=1&limit=100`,
    );
    expect(labelsOf(list.body.messages, found.uid)).toContain(labelId);
    expect(labelsOf(list.body.messages, other.uid)).not.toContain(labelId);

    const search = await call(ann.browser, 'POST', 'messages/search', { subject: 'receipt' });
    expect(search.status).toBe(200);
    expect(labelsOf(search.body.messages, found.uid)).toContain(labelId);

    const opened = await call(ann.browser, 'GET', `messages/${found.folderId}/${found.uid}`);
    expect(opened.body.message.labels).toEqual([labelId]);
  });

  it('deleting a label takes it off every message and announces the change', async () => {
    const { body } = await call(ann.browser, 'POST', 'labels', {
      label: { name: 'Temp', search_content: 'zzz' },
    });
    const labelId = body.label.id;
    const m = await ann.deliver({ from: 'a@example.com', subject: 'Keep me', text: 'x' });
    await call(ann.browser, 'POST', 'messages/mark', {
      flag: 'label',
      label_id: labelId,
      folder_messages: [{ folder_id: m.folderId, message_uids: [m.uid] }],
    });
    const seen: unknown[] = [];
    const stop = ctx.events.subscribe(ann.accountId, (e) => seen.push(e));
    const deleted = await call(ann.browser, 'DELETE', `labels/${labelId}`);
    stop();
    expect(deleted.body).toEqual({ ok: true });
    const row = await ctx.db
      .selectFrom('messages')
      .select('labels')
      .where('id', '=', m.id)
      .executeTakeFirstOrThrow();
    expect(row.labels).toEqual([]);
    expect(seen).toContainEqual({ event: 'store', folder_id: m.folderId, uids: [m.uid] });
    expect((await call(ann.browser, 'DELETE', `labels/${labelId}`)).status).toBe(404);
    expect((await call(ann.browser, 'GET', `messages/label/${labelId}`)).status).toBe(404);
  });
});
