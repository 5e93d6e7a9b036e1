import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanup, createTestDb } from '../_util.js';
import { composeRaw, createAccount, deliverTestMessage } from '../_mail.js';
import { FsBlobStore, blobHash } from '../../src/core/blobs/index.js';
import { parseMessage, storeMessage, systemFolder } from '../../src/mailbox/index.js';

const db = await createTestDb();
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-blobs-'));
cleanup(() => fs.rm(dir, { recursive: true, force: true }));
const blobs = new FsBlobStore(dir);

describe('storing a message', () => {
  it('keeps the raw bytes as a blob, takes the next UID and counts it unread', async () => {
    const account = await createAccount(db);
    const first = await deliverTestMessage(db, blobs, account.id, {
      from: 'a@example.com',
      to: account.email,
      subject: 'One',
      text: 'x',
    });
    const second = await deliverTestMessage(db, blobs, account.id, {
      from: 'a@example.com',
      to: account.email,
      subject: 'Two',
      text: 'y',
    });
    expect(second.uid).toBe(first.uid + 1);
    const inbox = await db
      .selectFrom('folders')
      .selectAll()
      .where('id', '=', first.folderId)
      .executeTakeFirstOrThrow();
    expect(inbox).toMatchObject({ unread_count: 2, total_count: 2, uidnext: second.uid + 1 });
    const row = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    const raw = await blobs.get(row.blob_hash);
    expect(blobHash(raw)).toBe(row.blob_hash);
    expect(raw.toString()).toContain('Subject: One');
    const used = await db
      .selectFrom('accounts')
      .select('quota_used_bytes')
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(used.quota_used_bytes).toBe(
      row.size +
        (await db.selectFrom('messages').select('size').where('id', '=', second.id).executeTakeFirstOrThrow())
          .size,
    );
  });

  it('a reply joins the thread of the message it answers', async () => {
    const account = await createAccount(db);
    const original = await deliverTestMessage(db, blobs, account.id, {
      from: 'bob@example.com',
      to: account.email,
      subject: 'Платёж',
      text: 'a',
      messageId: '<orig-1@example.com>',
    });
    const reply = await deliverTestMessage(db, blobs, account.id, {
      from: 'bob@example.com',
      to: account.email,
      subject: 'Something else',
      text: 'b',
      inReplyTo: '<orig-1@example.com>',
    });
    const bySubject = await deliverTestMessage(db, blobs, account.id, {
      from: 'bob@example.com',
      to: account.email,
      subject: 'RE: Fwd: платёж',
      text: 'c',
    });
    const unrelated = await deliverTestMessage(db, blobs, account.id, {
      from: 'bob@example.com',
      to: account.email,
      subject: 'Платёж',
      text: 'd',
    });
    expect(reply.threadId).toBe(original.threadId);
    expect(bySubject.threadId).toBe(original.threadId);
    expect(unrelated.threadId).not.toBe(original.threadId);
  });

  it('a message over the quota is refused and nothing is stored', async () => {
    const account = await createAccount(db);
    await db.updateTable('accounts').set({ quota_limit_bytes: 100 }).where('id', '=', account.id).execute();
    const raw = await composeRaw({
      from: 'a@example.com',
      to: account.email,
      subject: 'Big',
      text: 'x'.repeat(500),
    });
    const inbox = await systemFolder(db, account.id, 'inbox');
    await expect(
      storeMessage(db, blobs, {
        accountId: account.id,
        folderId: inbox.id,
        raw,
        parsed: await parseMessage(raw),
      }),
    ).rejects.toMatchObject({ code: 'quota_exceeded' });
    const folder = await db
      .selectFrom('folders')
      .selectAll()
      .where('id', '=', inbox.id)
      .executeTakeFirstOrThrow();
    expect(folder).toMatchObject({ total_count: 0, uidnext: 1 });
  });
});
