import { describe, expect, it } from 'vitest';
import type { MailEvent } from '@mailroom/protocol';
import { runMailImport } from '../../src/imports/index.js';
import { createTestApp } from '../_util.js';
import { mailUser } from '../_actions.js';
import { api, errorCode } from '../_client.js';
import { upload } from '../_sending.js';
import { importDeps, mbox } from '../_imports.js';

const ctx = await createTestApp();

const messages = Array.from({ length: 5 }, (_, i) =>
  Buffer.from(`Message-ID: <api${i}@test>\r\nSubject: api ${i}\r\nFrom: a@example.org\r\n\r\nhello ${i}\r\n`),
);

describe('mail import over the API', () => {
  it('starts an import from an uploaded file, tells the tabs once a batch, and lists it with its report', async () => {
    const ann = await mailUser(ctx, 'Ann Import');
    const bo = await mailUser(ctx, 'Bo Other');
    const uploaded = await upload(ctx.app, ann.browser, 'old.mbox', mbox(messages), 'application/mbox');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);

    // Another member cannot import Ann's upload.
    const stolen = await api(bo.browser, 'startMailImport', {
      body: { upload_id: uploaded.body.attachment.id },
    });
    expect(stolen.status, JSON.stringify([uploaded.body, stolen.body])).toBe(404);

    const started = await api(ann.browser, 'startMailImport', {
      body: { upload_id: uploaded.body.attachment.id },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.import).toMatchObject({
      state: 'queued',
      file_name: 'old.mbox',
      done: 0,
      filters: false,
    });

    const seen: MailEvent[] = [];
    const stop = ctx.events.subscribe(ann.accountId, (e) => seen.push(e));
    try {
      while (await runMailImport(importDeps(ctx, { batchMessages: 2 })));
    } finally {
      stop();
    }
    // One progress event per batch of 2 (and the count before), the Inbox's counters, never a `new` per message.
    const progress = seen.filter((e) => e.event === 'mailImport');
    expect(progress.map((e) => e.event === 'mailImport' && e.import.done)).toEqual([0, 2, 4, 5, 5]);
    expect(seen.some((e) => e.event === 'new')).toBe(false);
    expect(seen.filter((e) => e.event === 'updateMailbox').length).toBeLessThanOrEqual(3);

    const one = await api(ann.browser, 'mailImport', { params: { id: started.body.import.id } });
    expect(one.body.import).toMatchObject({ state: 'done', format: 'mbox', total: 5, done: 5, stored: 5 });
    const list = await api(ann.browser, 'mailImports');
    expect(list.body.imports.map((i: { id: number }) => i.id)).toEqual([started.body.import.id]);
    expect((await api(bo.browser, 'mailImport', { params: { id: started.body.import.id } })).status).toBe(
      404,
    );
    expect((await api(bo.browser, 'mailImports')).body.imports).toEqual([]);
  });

  it('refuses an upload that is no mail, or none of the member, with a catalogue error', async () => {
    const ann = await mailUser(ctx, 'Ann Bad');
    const bad = await upload(
      ctx.app,
      ann.browser,
      'photo.png',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
    );
    const refused = await api(ann.browser, 'startMailImport', {
      body: { upload_id: bad.body.attachment.id },
    });
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('import_file_unreadable');
    expect((await api(ann.browser, 'mailImports')).body.imports).toEqual([]);
    const missing = await api(ann.browser, 'startMailImport', { body: { upload_id: 999999 } });
    expect(missing.status).toBe(404);
    expect(errorCode(missing.body)).toBe('entity_not_found');
  });
});
