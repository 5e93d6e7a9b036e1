import { describe, expect, it } from 'vitest';
import { IMPORT_UPLOAD_PART_BYTES, IMPORT_UPLOADS_MAX } from '@mailroom/protocol';
import { runMailImport, sweepImportUploads } from '../../src/imports/index.js';
import { appBlobReferences } from '../../src/app.js';
import { createTestApp } from '../_util.js';
import { mailUser } from '../_actions.js';
import { api, okBody } from '../_client.js';
import { importDeps, mbox, sha256 } from '../_imports.js';
import type { Browser } from '../_util.js';

const ctx = await createTestApp();

/** An mbox of `count` messages of ~`each` bytes: over two parts' worth when count × each is. */
function bigMbox(count: number, each: number, tag: string) {
  const messages = Array.from({ length: count }, (_, i) => {
    const line = `${tag} ${i} `.padEnd(76, 'x');
    const body = Array.from({ length: Math.ceil(each / 78) }, () => line).join('\r\n');
    return Buffer.from(
      `Message-ID: <${tag}${i}@upload.test>\r\nSubject: ${tag} ${i}\r\nFrom: a@example.org\r\n` +
        `Date: Mon, 2 Mar 2026 10:00:00 +0000\r\n\r\n${body}\r\n`,
    );
  });
  return { messages, file: mbox(messages) };
}

function putPart(browser: Browser, id: number, part: number, bytes: Buffer, headers = {}) {
  return api(browser, 'putImportUploadPart', {
    params: { id, part },
    raw: bytes,
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });
}

const slice = (file: Buffer, part: number) =>
  file.subarray(part * IMPORT_UPLOAD_PART_BYTES, (part + 1) * IMPORT_UPLOAD_PART_BYTES);

describe('chunked upload of an import file', () => {
  it('a file sent in parts, one cut off and sent again, imports every message byte for byte', async () => {
    const ann = await mailUser(ctx, 'Ann Parts');
    const { messages, file } = bigMbox(9, 2 * 2 ** 20, 'parts');
    expect(file.length).toBeGreaterThan(2 * IMPORT_UPLOAD_PART_BYTES);
    const { upload } = await okBody(ann.browser, 'createImportUpload', {
      body: { file_name: 'old mail.mbox', size: file.length },
    });
    expect(upload).toMatchObject({ received: 0, size: file.length, part_bytes: IMPORT_UPLOAD_PART_BYTES });

    expect((await putPart(ann.browser, upload.id, 0, slice(file, 0))).status).toBe(200);
    // The connection drops mid-part: the server gets fewer bytes than the part holds, and keeps none of them.
    const cut = await putPart(ann.browser, upload.id, 1, slice(file, 1).subarray(0, 1000));
    expect([cut.status, cut.code]).toEqual([400, 'invalid_request_params']);
    // A part ahead of the next is refused: parts come in order.
    const ahead = await putPart(ann.browser, upload.id, 2, slice(file, 2));
    expect([ahead.status, ahead.code]).toEqual([400, 'invalid_request_params']);
    // The client asks how far it got, and goes on from there.
    const after = await okBody(ann.browser, 'importUpload', { params: { id: upload.id } });
    expect(after.upload.received).toBe(IMPORT_UPLOAD_PART_BYTES);
    const early = await api(ann.browser, 'startMailImport', { body: { import_upload_id: upload.id } });
    expect([early.status, early.code]).toEqual([409, 'import_upload_incomplete']);

    expect((await putPart(ann.browser, upload.id, 1, slice(file, 1))).status).toBe(200);
    // A part whose answer was lost is sent again: it replaces itself, the count stays.
    const again = await putPart(ann.browser, upload.id, 1, slice(file, 1));
    expect(again.body.upload.received).toBe(2 * IMPORT_UPLOAD_PART_BYTES);
    const last = await putPart(ann.browser, upload.id, 2, slice(file, 2));
    expect(last.body.upload.received).toBe(file.length);

    const started = await okBody(ann.browser, 'startMailImport', { body: { import_upload_id: upload.id } });
    expect(started.import).toMatchObject({ state: 'queued', file_name: 'old mail.mbox' });
    // One import per upload: a second click finds it taken.
    const twice = await api(ann.browser, 'startMailImport', { body: { import_upload_id: upload.id } });
    expect(twice.status).toBe(404);

    while (await runMailImport(importDeps(ctx)));
    const done = await okBody(ann.browser, 'mailImport', { params: { id: started.import.id } });
    expect(done.import).toMatchObject({ state: 'done', stored: 9, skipped: 0, failed: 0 });
    const stored = await ctx.db
      .selectFrom('messages')
      .select('blob_hash')
      .where('account_id', '=', ann.accountId)
      .execute();
    expect(stored.map((m) => m.blob_hash).sort()).toEqual(messages.map((m) => sha256(m)).sort());

    // The import has ended: its upload is gone, and nothing holds the parts' blobs any more.
    expect((await api(ann.browser, 'importUpload', { params: { id: upload.id } })).status).toBe(404);
    const partHashes = [0, 1, 2].map((n) => sha256(slice(file, n)));
    expect([...(await appBlobReferences(ctx.db)(partHashes))]).toEqual([]);
  });

  it('refuses a file over the quota, a third unfinished upload, and parts of the wrong size or of another member', async () => {
    const ann = await mailUser(ctx, 'Ann Limits');
    const bo = await mailUser(ctx, 'Bo Limits');
    const huge = await api(ann.browser, 'createImportUpload', {
      body: { file_name: 'huge.mbox', size: 2 ** 45 },
    });
    expect([huge.status, huge.code]).toEqual([413, 'import_file_too_large']);

    const uploads = [];
    for (let i = 0; i < IMPORT_UPLOADS_MAX; i++)
      uploads.push(
        (await okBody(ann.browser, 'createImportUpload', { body: { file_name: `f${i}.mbox`, size: 100 } }))
          .upload,
      );
    const third = await api(ann.browser, 'createImportUpload', { body: { file_name: 'f.mbox', size: 100 } });
    expect([third.status, third.code]).toEqual([429, 'import_uploads_limit_reached']);

    const id = uploads[0]!.id;
    const long = await putPart(ann.browser, id, 0, Buffer.alloc(101, 65));
    expect([long.status, long.code]).toEqual([400, 'invalid_request_params']);
    const beyond = await putPart(ann.browser, id, 1, Buffer.alloc(1, 65));
    expect(beyond.status).toBe(400);
    const theirs = await putPart(bo.browser, id, 0, Buffer.alloc(100, 65));
    expect(theirs.status).toBe(404);
    expect((await api(bo.browser, 'importUpload', { params: { id } })).status).toBe(404);
    expect((await api(bo.browser, 'deleteImportUpload', { params: { id } })).status).toBe(404);

    // Cancelled, it makes room for another.
    expect((await api(ann.browser, 'deleteImportUpload', { params: { id } })).status).toBe(200);
    expect((await api(ann.browser, 'importUpload', { params: { id } })).status).toBe(404);
    const room = await api(ann.browser, 'createImportUpload', { body: { file_name: 'g.mbox', size: 100 } });
    expect(room.status).toBe(200);
  });

  it('an upload left for a day is swept, one an import is reading is kept until the import ends', async () => {
    const ann = await mailUser(ctx, 'Ann Sweep');
    const { file } = bigMbox(2, 1000, 'sweep');
    const left = (
      await okBody(ann.browser, 'createImportUpload', { body: { file_name: 'a.mbox', size: 500 } })
    ).upload;
    const taken = (
      await okBody(ann.browser, 'createImportUpload', { body: { file_name: 'b.mbox', size: file.length } })
    ).upload;
    expect((await putPart(ann.browser, taken.id, 0, file)).status).toBe(200);
    await okBody(ann.browser, 'startMailImport', { body: { import_upload_id: taken.id } });

    const tomorrow = Date.now() + 25 * 3600_000;
    // (Uploads of the tests above are a day old then too.)
    expect(await sweepImportUploads(ctx.db, tomorrow)).toBeGreaterThanOrEqual(1);
    expect((await api(ann.browser, 'importUpload', { params: { id: left.id } })).status).toBe(404);
    // The import still reads its upload: kept, and it imports.
    while (await runMailImport(importDeps(ctx)));
    const imports = await okBody(ann.browser, 'mailImports');
    expect(imports.imports[0]).toMatchObject({ state: 'done', stored: 2 });
  });
});
