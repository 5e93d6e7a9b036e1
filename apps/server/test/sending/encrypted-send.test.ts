import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { simpleParser } from 'mailparser';
import { sql } from 'kysely';
import { decryptEnvelope, deriveSecrets, encryptMessage } from '../../../web/src/lib/crypto.js';
import { Browser, createTestApp, storedBlobs } from '../_util.js';
import { mailUser } from '../_actions.js';
import { api, apiRequest } from '../_client.js';

const ctx = await createTestApp();
const { app, db, blobs } = ctx;
const ann = await mailUser(ctx, 'Ann Lee');
const bob = await mailUser(ctx, 'Bo Chen');

const MARKER = `SEND-MARKER-${randomBytes(6).toString('hex')}`;
const PASSWORD = 'Zx8pQ2mN4vR7tY1wK5sL';

async function newest(folderId: number) {
  const row = await db
    .selectFrom('messages')
    .select(['uid', 'subject', 'encrypted', 'blob_hash', 'folder_id'])
    .where('folder_id', '=', folderId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { ...row, mail: await simpleParser(await blobs.get(row.blob_hash)) };
}

function encryptedRequest(encryption: object, extra: Record<string, unknown> = {}) {
  return {
    subject: '',
    fields: {
      from: { email: ann.email, name: 'Ann Lee' },
      to: [{ email: bob.email, name: '' }],
      cc: [{ email: 'carol@elsewhere.example', name: '' }],
    },
    content: '',
    content_type: 'text/html',
    encrypt: true,
    encryption,
    ...extra,
  };
}

describe('sending a password-encrypted message', () => {
  const sealedPromise = encryptMessage(PASSWORD, {
    subject: `Квартальный отчёт ${MARKER}`,
    content: `<p>The numbers ${MARKER}</p>`,
    content_type: 'text/html',
    attachments: [
      { name: 'q3.csv', type: 'text/csv', bytes: new TextEncoder().encode(`a,b\n${MARKER},2\n`) },
    ],
  });

  it('recipients get a notice with the /decrypt link, and the right password opens it in the reader', async () => {
    const sealed = await sealedPromise;
    const { size: _size, ...encryption } = sealed;
    const { status, body } = await api(ann.browser, 'sendMessage', { body: encryptedRequest(encryption) });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ delivered: 1, queued: 1 });

    const notice = await newest(bob.folders.inbox);
    expect(notice.encrypted).toBe(true);
    expect(notice.subject).toBe('Encrypted message / Зашифрованное сообщение');
    expect(notice.mail.text).toContain('Ann Lee');
    const link = /http:\/\/mailroom\.localhost\/decrypt\?id=([A-Za-z0-9_-]{22})/.exec(notice.mail.text ?? '');
    expect(link).not.toBeNull();
    expect(notice.mail.attachments).toHaveLength(0);

    const sent = await newest(ann.folders.sent);
    expect(sent.encrypted).toBe(true);
    expect(sent.mail.text).toContain(link![0]);

    // Bob in the reader: params, then the ciphertext with the authentication value.
    const ref = { folder_id: notice.folder_id, uid: notice.uid };
    const params = await api(bob.browser, 'decryptMessage', { body: ref });
    expect(params.body).toMatchObject({ id: link![1], key_salt: sealed.key_salt });
    const { key, auth } = await deriveSecrets(PASSWORD, params.body);
    const opened = await apiRequest(bob.browser, 'decryptMessage', { body: { ...ref, auth } });
    expect(opened.statusCode).toBe(200);
    const payload = await decryptEnvelope(key, new Uint8Array(opened.rawPayload));
    expect(payload.subject).toBe(`Квартальный отчёт ${MARKER}`);
    expect(new TextDecoder().decode(payload.attachments[0]!.bytes)).toContain(MARKER);

    // The same message opens on the public page by its id, without an account.
    const anonymous = await apiRequest(new Browser(app), 'decrypt', { body: { id: link![1], auth } });
    expect(anonymous.statusCode).toBe(200);
  });

  it('nothing of the message is stored in the clear: rows, outbox and blobs hold no trace of it', async () => {
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public'`.execute(db);
    let dump = '';
    for (const { table_name } of tables.rows) {
      const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(
        db,
      );
      dump += rows.rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain('carol@elsewhere.example');
    expect(dump).not.toContain(MARKER);
    expect(dump).not.toContain(PASSWORD);
    const stored = await storedBlobs(db, blobs);
    expect(stored.length).toBeGreaterThan(0);
    for (const { hash, bytes } of stored) {
      expect(bytes.includes(MARKER), hash).toBe(false);
      expect(bytes.includes(PASSWORD), hash).toBe(false);
    }
  });

  it('an encrypted send that still carries the subject, body or attachments in the clear is refused', async () => {
    const { size: _size, ...encryption } = await sealedPromise;
    for (const extra of [{ subject: 'clear' }, { content: '<p>clear</p>' }, { attachments: [1] }]) {
      const { status, body } = await api(ann.browser, 'sendMessage', {
        body: encryptedRequest(encryption, extra),
      });
      expect(status, JSON.stringify(extra)).toBe(400);
      expect(body.error.meta.i8s).toBe('invalid_request_params');
    }
    const missing = await api(ann.browser, 'sendMessage', {
      body: encryptedRequest(encryption, { encryption: undefined }),
    });
    expect(missing.status).toBe(400);
  });
});
