import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ATTACHMENTS_TOTAL_LIMIT_BYTES, COMPOSE_MODE } from '@mailroom/protocol';
import { createTestApp } from '../_util.js';
import { mailUser } from '../_actions.js';
import { compose, parse, startJobs, until, upload } from '../_sending.js';
import { api, apiRequest } from '../_client.js';

const ctx = await createTestApp();
const { app, db, blobs } = ctx;
const ann = await mailUser(ctx, 'Ann Lee');
const bob = await mailUser(ctx, 'Bo Chen');
const MB = 1024 * 1024;

async function newest(folderId: number) {
  return db
    .selectFrom('messages')
    .select(['uid', 'blob_hash', 'attachments'])
    .where('folder_id', '=', folderId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

async function download(browser: typeof ann.browser, folderId: number, uid: number, id: number) {
  const response = await apiRequest(browser, 'attachment', {
    params: { id },
    query: { message_uid: uid, folder_id: folderId },
  });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
}

describe('compose attachments', () => {
  it('an uploaded file arrives byte for byte, with its Cyrillic name', async () => {
    const content = randomBytes(300_000);
    const uploaded = await upload(app, ann.browser, 'Отчёт за май.pdf', content);
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.attachment).toEqual({
      id: expect.any(Number),
      name: 'Отчёт за май.pdf',
      size: content.length,
    });
    const sent = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { attachments: [uploaded.body.attachment.id] }),
    });
    expect(sent.status).toBe(200);
    const got = await newest(bob.folders.inbox);
    expect(got.attachments.map((a) => a.name)).toEqual(['Отчёт за май.pdf']);
    const bytes = await download(bob.browser, bob.folders.inbox, got.uid, got.attachments[0]!.id);
    expect(Buffer.compare(bytes, content)).toBe(0);
    // Sent: the upload is used up.
    const again = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { attachments: [uploaded.body.attachment.id] }),
    });
    expect(again.status).toBe(404);
  });

  it('a file name is reduced to its last segment without control characters', async () => {
    const { body } = await upload(app, ann.browser, '../../etc/pass\u0007wd', Buffer.from('x'));
    expect(body.attachment.name).toBe('passwd');
  });

  it('a file over 50 MB is refused with max_limit_reached and nothing is kept', async () => {
    const before = await db.selectFrom('compose_uploads').select('id').execute();
    const { status, body } = await upload(
      app,
      ann.browser,
      'big.bin',
      Buffer.alloc(ATTACHMENTS_TOTAL_LIMIT_BYTES + 1),
    );
    expect(status).toBe(413);
    expect(body.error).toEqual({
      message: 'Max limit reached: 50Mb',
      meta: { code: 413, i8s: 'max_limit_reached' },
    });
    expect(await db.selectFrom('compose_uploads').select('id').execute()).toEqual(before);
  });

  it('attachments over 50 MB in total are refused on send and on draft', async () => {
    const a = await upload(app, ann.browser, 'a.bin', Buffer.alloc(26 * MB, 1));
    const b = await upload(app, ann.browser, 'b.bin', Buffer.alloc(26 * MB, 2));
    expect([a.status, b.status]).toEqual([200, 200]);
    const ids = [a.body.attachment.id, b.body.attachment.id];
    for (const route of ['sendMessage', 'saveDraft'] as const) {
      const { status, body } = await api(ann.browser, route, {
        body: compose(ann.email, [bob.email], { attachments: ids }),
      });
      expect(status).toBe(413);
      expect(body.error.meta.i8s).toBe('max_limit_reached');
    }
  });

  it("another account's upload id is refused", async () => {
    const mine = await upload(app, ann.browser, 'mine.txt', Buffer.from('mine'));
    const { status, body } = await api(bob.browser, 'sendMessage', {
      body: compose(bob.email, [ann.email], { attachments: [mine.body.attachment.id] }),
    });
    expect(status).toBe(404);
    expect(body.error.meta.i8s).toBe('entity_not_found');
  });

  it('an upload that does not fit in the quota is refused', async () => {
    const small = await mailUser(ctx, 'Small Box');
    await db
      .updateTable('accounts')
      .set({ quota_limit_bytes: 100_000 })
      .where('id', '=', small.accountId)
      .execute();
    const { status, body } = await upload(app, small.browser, 'big.bin', Buffer.alloc(150_000));
    expect(status).toBe(413);
    expect(body.error.meta.i8s).toBe('quota_exceeded');
    // Pending uploads count too.
    expect((await upload(app, small.browser, 'a.bin', Buffer.alloc(60_000))).status).toBe(200);
    expect((await upload(app, small.browser, 'b.bin', Buffer.alloc(60_000, 1))).status).toBe(413);
  });

  it('a request that is not multipart is refused with invalid_request_params', async () => {
    const { status, body } = await api(ann.browser, 'uploadAttachment', { body: { file: 'x' } });
    expect(status).toBe(400);
    expect(body.error.meta.i8s).toBe('invalid_request_params');
  });
});

describe('a broken multipart upload', () => {
  it('without a boundary, or cut off in its body, is invalid_request_params, never a 500', async () => {
    const boundary = 'XyZ123';
    const part = (body: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\n${body}`;
    for (const [contentType, payload] of [
      ['multipart/form-data', part('hello') + `\r\n--${boundary}--\r\n`],
      [`multipart/form-data; boundary=${boundary}`, part('hello, and then noth')],
      [`multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nContent-Disposition: form-da`],
    ] as const) {
      const response = await apiRequest(ann.browser, 'uploadAttachment', {
        headers: { 'content-type': contentType },
        raw: payload,
      });
      expect(response.statusCode, `${contentType} ${payload.slice(-20)}`).toBe(400);
      expect(response.json().error.meta.i8s).toBe('invalid_request_params');
    }
  });
});

describe('reusing attachments of a stored message', () => {
  it('a forward keeps the attachments without uploading them again', async () => {
    const content = randomBytes(50_000);
    await bob.deliver({
      from: 'someone@example.com',
      subject: 'Photos',
      text: 'see attached',
      attachments: [
        { filename: 'one.jpg', content, contentType: 'image/jpeg' },
        { filename: 'two.txt', content: 'two', contentType: 'text/plain' },
      ],
    });
    const original = await newest(bob.folders.inbox);
    const copied = await api(bob.browser, 'copyAttachments', {
      body: {
        folder_id: bob.folders.inbox,
        uid: original.uid,
        ids: [1],
      },
    });
    expect(copied.status).toBe(200);
    expect(copied.body.attachments).toEqual([
      { id: expect.any(Number), name: 'one.jpg', size: content.length },
    ]);
    const [row] = await db
      .selectFrom('compose_uploads')
      .select('blob_hash')
      .where('id', '=', copied.body.attachments[0].id)
      .execute();
    // Decoded from the stored message into a blob of its own.
    expect(row!.blob_hash).toBe(createHash('sha256').update(content).digest('hex'));

    const forward = await api(bob.browser, 'sendMessage', {
      body: compose(bob.email, [ann.email], {
        subject: 'Fwd: Photos',
        attachments: copied.body.attachments.map((a: { id: number }) => a.id),
        source: { folder_id: bob.folders.inbox, uid: original.uid, mode: COMPOSE_MODE.FORWARD },
      }),
    });
    expect(forward.status).toBe(200);
    const got = await newest(ann.folders.inbox);
    expect(Buffer.compare(await download(ann.browser, ann.folders.inbox, got.uid, 1), content)).toBe(0);
    // A forward is not a reply: no In-Reply-To.
    expect((await parse(await blobs.get(got.blob_hash))).inReplyTo).toBeUndefined();

    const all = await api(bob.browser, 'copyAttachments', {
      body: {
        folder_id: bob.folders.inbox,
        uid: original.uid,
      },
    });
    expect(all.body.attachments.map((a: { name: string }) => a.name)).toEqual(['one.jpg', 'two.txt']);
  });

  it("another account's message cannot be copied from", async () => {
    const theirs = await newest(bob.folders.inbox);
    const { status } = await api(ann.browser, 'copyAttachments', {
      body: {
        folder_id: bob.folders.inbox,
        uid: theirs.uid,
      },
    });
    expect(status).toBe(404);
    const missing = await api(bob.browser, 'copyAttachments', {
      body: {
        folder_id: bob.folders.inbox,
        uid: theirs.uid,
        ids: [99],
      },
    });
    expect(missing.status).toBe(404);
  });

  it('a reopened draft gets its attachments back', async () => {
    const up = await upload(app, ann.browser, 'plan.txt', Buffer.from('the plan'), 'text/plain');
    const saved = await api(ann.browser, 'saveDraft', {
      body: compose(ann.email, [], { subject: 'With a file', attachments: [up.body.attachment.id] }),
    });
    const copied = await api(ann.browser, 'copyAttachments', {
      body: {
        folder_id: ann.folders.draft,
        uid: saved.body.message.uid,
      },
    });
    expect(copied.body.attachments).toEqual([{ id: expect.any(Number), name: 'plan.txt', size: 8 }]);
  });
});

describe('the sweep', () => {
  it('removes uploads nobody used for a day', async () => {
    const stale = await upload(app, ann.browser, 'old.txt', Buffer.from('old'));
    const fresh = await upload(app, ann.browser, 'new.txt', Buffer.from('new'));
    await db
      .updateTable('compose_uploads')
      .set({ touched_at: new Date(Date.now() - 25 * 3600_000) })
      .where('id', '=', stale.body.attachment.id)
      .execute();
    startJobs(ctx);
    await until(async () => {
      const rows = await db
        .selectFrom('compose_uploads')
        .select('id')
        .where('id', '=', stale.body.attachment.id)
        .execute();
      return rows.length === 0;
    });
    const kept = await db
      .selectFrom('compose_uploads')
      .select('id')
      .where('id', '=', fresh.body.attachment.id)
      .execute();
    expect(kept).toHaveLength(1);
  });
});
