import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestApp, signUpAndSignIn } from '../_util.js';
import { deliverTestMessage } from '../_mail.js';
import { systemFolder } from '../../src/mailbox/index.js';
import { contentDisposition, safeFileName } from '../../src/mail/attachments.js';
import { servedContentType } from '../../src/mail/content-types.js';
import { apiRequest, apiPath } from '../_client.js';

const { app, db, blobs } = await createTestApp();

async function signedInUser(name: string) {
  const { browser } = await signUpAndSignIn(app, name);
  const { email } = (await apiRequest(browser, 'account')).json() as { email: string };
  const { id } = await db
    .selectFrom('accounts')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { browser, accountId: id, email, inbox: (await systemFolder(db, id, 'inbox')).id };
}
const ann = await signedInUser('Ann Lee');
const bob = await signedInUser('Bo Chen');

async function messageWith(
  accountId: number,
  attachments: { filename?: string; content: Buffer; contentType: string; cid?: string }[],
) {
  const stored = await deliverTestMessage(db, blobs, accountId, {
    from: 'a@example.com',
    subject: 'Files',
    html: '<p>see <img src="cid:inline-1@x"></p>',
    attachments,
  });
  const { attachments: parts } = await db
    .selectFrom('messages')
    .select('attachments')
    .where('id', '=', stored.id)
    .executeTakeFirstOrThrow();
  return { stored, parts };
}

describe('downloading attachments', () => {
  it('streams the bytes as a download with nosniff, a sandbox CSP and the harmless declared type', async () => {
    const pdf = Buffer.from('%PDF-1.4 hello');
    const { stored, parts } = await messageWith(ann.accountId, [
      { filename: 'Отчёт 2026.pdf', content: pdf, contentType: 'application/pdf' },
    ]);
    const r = await apiRequest(ann.browser, 'attachment', {
      params: { id: parts[0]!.id },
      query: { message_uid: stored.uid, folder_id: ann.inbox },
    });
    expect(r.statusCode).toBe(200);
    expect(r.rawPayload.equals(pdf)).toBe(true);
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(r.headers['content-disposition']).toBe(
      `attachment; filename="_____ 2026.pdf"; filename*=UTF-8''${encodeURIComponent('Отчёт 2026.pdf')}`,
    );
  });

  it('keeps an attachment only inside the stored message, and a message stored with a blob per attachment still serves it', async () => {
    const doc = Buffer.from('a document of its own');
    const { stored, parts } = await messageWith(ann.accountId, [
      { filename: 'doc.txt', content: doc, contentType: 'text/plain' },
    ]);
    expect(parts[0]!.part).toMatchObject({ encoding: expect.any(String) });
    expect(await blobs.has(createHash('sha256').update(doc).digest('hex'))).toBe(false);

    // Before 2026-11-24 each attachment was a blob of its own: such rows must still download.
    const legacy = await blobs.put(Buffer.from('stored the old way'));
    const { part: _part, ...rest } = parts[0]!;
    await db
      .updateTable('messages')
      .set({ attachments: JSON.stringify([{ ...rest, blob_hash: legacy.hash, size: legacy.size }]) })
      .where('id', '=', stored.id)
      .execute();
    const r = await apiRequest(ann.browser, 'attachment', {
      params: { id: parts[0]!.id },
      query: { message_uid: stored.uid, folder_id: ann.inbox },
    });
    expect(r.statusCode).toBe(200);
    expect(r.payload).toBe('stored the old way');
  });

  it('shows a name without bidi overrides or other invisible format characters', async () => {
    const { stored } = await messageWith(ann.accountId, [
      {
        filename: 'invoice\u202Efdp.exe',
        content: Buffer.from('MZ'),
        contentType: 'application/octet-stream',
      },
      { filename: 'a\u2066b\u200Fc\u00ADd\uFEFF.txt', content: Buffer.from('x'), contentType: 'text/plain' },
    ]);
    const opened = await apiRequest(ann.browser, 'message', {
      params: { folder_id: ann.inbox, uid: stored.uid },
    });
    const names = (opened.json() as { message: { attachments: { name: string }[] } }).message.attachments.map(
      (a) => a.name,
    );
    expect(names).toEqual(['invoicefdp.exe', 'abcd.txt']);
  });

  it('serves HTML, SVG and unknown types as application/octet-stream', async () => {
    const { stored, parts } = await messageWith(ann.accountId, [
      { filename: 'page.html', content: Buffer.from('<script>alert(1)</script>'), contentType: 'text/html' },
      { filename: 'pic.svg', content: Buffer.from('<svg onload="alert(1)"/>'), contentType: 'image/svg+xml' },
      { filename: 'photo.png', content: Buffer.from('PNG'), contentType: 'image/png' },
    ]);
    const types = [];
    for (const p of parts) {
      const r = await apiRequest(ann.browser, 'attachment', {
        params: { id: p.id },
        query: { message_uid: stored.uid, folder_id: ann.inbox },
      });
      types.push([p.name, r.headers['content-type']]);
    }
    expect(types).toEqual([
      ['page.html', 'application/octet-stream'],
      ['pic.svg', 'application/octet-stream'],
      ['photo.png', 'image/png'],
    ]);
  });

  it('an inline (cid) part is served the same way', async () => {
    const { stored, parts } = await messageWith(ann.accountId, [
      { filename: 'logo.png', content: Buffer.from('LOGO'), contentType: 'image/png', cid: 'inline-1@x' },
    ]);
    const inline = parts.find((p) => p.inline)!;
    expect(inline).toBeDefined();
    const r = await apiRequest(ann.browser, 'attachment', {
      params: { id: inline.id },
      query: { message_uid: stored.uid, folder_id: ann.inbox },
    });
    expect(r.statusCode).toBe(200);
    expect(r.body).toBe('LOGO');
    expect(r.headers['content-disposition']).toMatch(/^attachment; filename="logo.png"/);
  });

  it("another account's attachment, or an unknown one, is entity_not_found", async () => {
    const { stored, parts } = await messageWith(bob.accountId, [
      { filename: 'secret.txt', content: Buffer.from('bob secret'), contentType: 'text/plain' },
    ]);
    const bobs = await db
      .selectFrom('folders')
      .select('id')
      .where('account_id', '=', bob.accountId)
      .where('system', '=', 'inbox')
      .executeTakeFirstOrThrow();
    for (const url of [
      apiPath('attachment', {
        params: { id: parts[0]!.id },
        query: { message_uid: stored.uid, folder_id: bobs.id },
      }),
      apiPath('attachment', {
        params: { id: parts[0]!.id },
        query: { message_uid: 99999, folder_id: ann.inbox },
      }),
      apiPath('attachment', { params: { id: 99 }, query: { message_uid: stored.uid, folder_id: bobs.id } }),
    ]) {
      const r = await ann.browser.get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json().error.meta.i8s).toBe('entity_not_found');
      expect(r.body).not.toContain('bob secret');
    }
    const own = await apiRequest(bob.browser, 'attachment', {
      params: { id: parts[0]!.id },
      query: { message_uid: stored.uid, folder_id: bobs.id },
    });
    expect(own.body).toBe('bob secret');
    expect(own.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('bad query values are a 400, not a 500', async () => {
    for (const query of [
      {},
      { message_uid: 'x', folder_id: 1 },
      { message_uid: 1, folder_id: 'abc' },
      { message_uid: 99999999999, folder_id: 1 },
    ]) {
      const r = await apiRequest(ann.browser, 'attachment', { params: { id: 1 }, query });
      expect(r.statusCode, JSON.stringify(query)).toBe(400);
    }
  });
});

describe('download names', () => {
  it('strip folders, control characters and quotes, and fall back when nothing is left', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('..\\..\\windows\\win.ini')).toBe('win.ini');
    expect(safeFileName('/etc/x')).toBe('x');
    expect(safeFileName('a"b\r\nc\u0000d.txt')).toBe('abcd.txt');
    expect(safeFileName('evil\u202egnp.exe')).toBe('evilgnp.exe');
    expect(safeFileName('...')).toBe('attachment');
    expect(safeFileName('')).toBe('attachment');
    expect(safeFileName('x'.repeat(500))).toHaveLength(200);
    expect(contentDisposition('we"ird\n.txt')).toBe(
      `attachment; filename="weird.txt"; filename*=UTF-8''weird.txt`,
    );
  });

  it('serve declared types only when harmless', () => {
    expect(servedContentType('image/jpeg')).toBe('image/jpeg');
    expect(servedContentType('IMAGE/PNG; name=x')).toBe('image/png');
    expect(servedContentType('video/mp4')).toBe('video/mp4');
    for (const t of [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/javascript',
      'application/x-msdownload',
      'nonsense',
    ])
      expect(servedContentType(t), t).toBe('application/octet-stream');
  });
});
