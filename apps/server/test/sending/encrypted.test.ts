import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ENCRYPTION_KDF_ITERATIONS, type Encryption } from '@mailroom/protocol';
import { createEncryptedMessage, sweepExpiredEncrypted } from '../../src/encrypted/index.js';
import { systemFolder } from '../../src/mailbox/index.js';
import { deliverMessage } from '../../src/delivery/index.js';
import { resolveRecipient } from '../../src/addresses/index.js';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import {
  decryptEnvelope,
  deriveSecrets,
  encryptMessage,
  fromBase64Url,
} from '../../../web/src/lib/crypto.js';
import { Browser, createTestApp, signUpAndSignIn, storedBlobs } from '../_util.js';
import { apiRequest } from '../_client.js';

const MAX_ATTEMPTS = 3;
const { app, db, config, blobs, events } = await createTestApp({
  env: { ENCRYPTED_MESSAGE_MAX_ATTEMPTS: String(MAX_ATTEMPTS), DECRYPT_RATE_LIMIT: '1000' },
});
const ann = await signUpAndSignIn(app, 'Ann Sender');
const bob = await signUpAndSignIn(app, 'Bob Reader');
const accountOf = async (memberId: string) =>
  db
    .selectFrom('accounts')
    .select(['id', 'email'])
    .where('member_id', '=', memberId)
    .executeTakeFirstOrThrow();
const annAccount = await accountOf(ann.memberId);
const bobAccount = await accountOf(bob.memberId);

const PASSWORD = 'Tr0ub4dor-and-3';
const MARKER = `PLAINTEXT-MARKER-${randomBytes(6).toString('hex')}`;
const attachmentBytes = Buffer.concat([Buffer.from(`${MARKER} in the attachment\n`), randomBytes(50_000)]);

async function seal(password = PASSWORD) {
  return encryptMessage(password, {
    subject: `Subject ${MARKER}`,
    content: `<p>Body ${MARKER}</p>`,
    content_type: 'text/html',
    attachments: [{ name: `${MARKER}.txt`, type: 'text/plain', bytes: new Uint8Array(attachmentBytes) }],
  });
}

async function store(sealed: Encryption) {
  return createEncryptedMessage(
    { config, db, blobs },
    { accountId: annAccount.id, sender: { email: annAccount.email, name: 'Ann Sender' }, encryption: sealed },
  );
}

const anonymous = () => new Browser(app);

/** The inbound delivery path local recipients of messages/send take too. */
async function deliverToBob(raw: Buffer) {
  const resolved = await resolveRecipient(db, config, bobAccount.email);
  if (resolved.kind !== 'local') throw new Error('Bob is not local');
  const log = { info() {}, warn() {}, error() {}, debug() {} };
  return deliverMessage({ config, db, blobs, events, log }, raw, [resolved.recipient], 'each');
}

async function authFor(id: string, password: string) {
  const params = (await apiRequest(anonymous(), 'decryptParams', { params: { id } })).json() as {
    iterations: number;
    key_salt: string;
    auth_salt: string;
  };
  return { params, ...(await deriveSecrets(password, params)) };
}

async function inbox(accountId: number) {
  const folder = await systemFolder(db, accountId, 'inbox');
  return db
    .selectFrom('messages')
    .select(['uid', 'subject', 'encrypted'])
    .where('folder_id', '=', folder.id)
    .orderBy('uid')
    .execute();
}

describe('password-encrypted messages', () => {
  const sealedPromise = seal();

  it('the right password fetches the ciphertext and it opens in the browser', async () => {
    const sealed = await sealedPromise;
    const { id } = await store(sealed);
    const { key, auth, params } = await authFor(id, PASSWORD);
    expect(params).toMatchObject({ iterations: ENCRYPTION_KDF_ITERATIONS, key_salt: sealed.key_salt });
    const response = await apiRequest(anonymous(), 'decrypt', { body: { id, auth } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/octet-stream');
    expect(response.headers['cache-control']).toBe('no-store');
    const opened = await decryptEnvelope(key, new Uint8Array(response.rawPayload));
    expect(opened.subject).toBe(`Subject ${MARKER}`);
    expect(Buffer.from(opened.attachments[0]!.bytes).equals(attachmentBytes)).toBe(true);
  });

  it('the server stores neither the plaintext, the password, the key nor the authentication value', async () => {
    const sealed = await sealedPromise;
    const { id } = await store(sealed);
    // The AES key the browser derives (non-extractable there), derived here to look for it.
    const key = pbkdf2Sync(PASSWORD, fromBase64Url(sealed.key_salt), ENCRYPTION_KDF_ITERATIONS, 32, 'sha256');
    const auth = Buffer.from(sealed.auth, 'base64url');
    const needles = [
      Buffer.from(MARKER),
      Buffer.from(PASSWORD),
      key,
      Buffer.from(key.toString('hex')),
      Buffer.from(key.toString('base64url')),
      auth,
      Buffer.from(sealed.auth),
      Buffer.from(auth.toString('hex')),
    ];

    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables where table_schema = 'public'`.execute(db);
    let dump = '';
    for (const { table_name } of tables.rows) {
      const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(
        db,
      );
      dump += rows.rows.map((r) => r.row).join('\n');
    }
    expect(dump).toContain(id);
    for (const needle of needles) expect(dump.includes(needle.toString('latin1'))).toBe(false);

    // Every blob as the store gives it back: small ones are kept compressed in the database, so the dump
    // above cannot show what they hold.
    const stored = await storedBlobs(db, blobs);
    expect(stored.length).toBeGreaterThan(0);
    for (const { hash, bytes } of stored) {
      for (const needle of needles) expect(bytes.includes(needle), hash).toBe(false);
    }
  });

  it('the ciphertext is not served before the password is proven', async () => {
    const sealed = await sealedPromise;
    const { id } = await store(sealed);
    const ciphertext = Buffer.from(sealed.ciphertext, 'base64');
    const params = await apiRequest(anonymous(), 'decryptParams', { params: { id } });
    expect(Object.keys(params.json() as object).sort()).toEqual([
      'auth_salt',
      'id',
      'iterations',
      'key_salt',
    ]);
    const wrong = await authFor(id, 'not the password');
    const refused = await apiRequest(anonymous(), 'decrypt', { body: { id, auth: wrong.auth } });
    expect(refused.statusCode).toBe(403);
    expect(refused.rawPayload.length).toBeLessThan(200);
    expect(refused.rawPayload.includes(ciphertext.subarray(20, 60))).toBe(false);
    // Without the custom header a cross-site page cannot even ask.
    const crossSite = await apiRequest(anonymous(), 'decrypt', {
      body: { id, auth: wrong.auth },
      csrf: false,
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toMatchObject({ error: { meta: { i8s: 'csrf_failed' } } });
  });

  it('a wrong password and an unknown id get byte-identical answers', async () => {
    const { id } = await store(await sealedPromise);
    const auth = randomBytes(32).toString('base64url');
    const unknownId = randomBytes(16).toString('base64url');
    const wrong = await apiRequest(anonymous(), 'decrypt', { body: { id, auth } });
    const unknown = await apiRequest(anonymous(), 'decrypt', { body: { id: unknownId, auth } });
    expect(wrong.statusCode).toBe(403);
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.rawPayload.equals(wrong.rawPayload)).toBe(true);
    expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
    expect(wrong.json()).toMatchObject({ error: { meta: { code: 403, i8s: 'decrypt_failed' } } });
  });

  it('params of an unknown id look like real ones and stay the same, so they do not tell which ids exist', async () => {
    const unknownId = randomBytes(16).toString('base64url');
    const first = (
      await apiRequest(anonymous(), 'decryptParams', { params: { id: unknownId } })
    ).json() as Record<string, unknown>;
    const again = (await apiRequest(anonymous(), 'decryptParams', { params: { id: unknownId } })).json();
    const other = (
      await apiRequest(anonymous(), 'decryptParams', {
        params: { id: randomBytes(16).toString('base64url') },
      })
    ).json();
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(first.iterations).toBe(ENCRYPTION_KDF_ITERATIONS);
    expect(first.key_salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.auth_salt).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.key_salt).not.toBe(first.auth_salt);
  });

  it('brute force is locked out after a few wrong passwords, even for the right one, and the sender is told once', async () => {
    const { id } = await store(await sealedPromise);
    const before = (await inbox(annAccount.id)).length;
    const { auth: rightAuth } = await authFor(id, PASSWORD);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      const guess = await apiRequest(anonymous(), 'decrypt', {
        body: { id, auth: randomBytes(32).toString('base64url') },
      });
      expect(guess.json()).toMatchObject({ error: { meta: { i8s: 'decrypt_failed' } } });
    }
    const right = await apiRequest(anonymous(), 'decrypt', { body: { id, auth: rightAuth } });
    expect(right.statusCode).toBe(423);
    expect(right.json()).toMatchObject({ error: { meta: { i8s: 'decrypt_locked' } } });
    await apiRequest(anonymous(), 'decrypt', { body: { id, auth: randomBytes(32).toString('base64url') } });

    const notices = (await inbox(annAccount.id)).slice(before);
    expect(notices.map((m) => m.subject)).toEqual([
      'Encrypted message locked / Зашифрованное сообщение заблокировано',
    ]);
  });

  it('an expired message answers like an unknown one, and the sweep deletes it with its ciphertext', async () => {
    const { id } = await store(await sealedPromise);
    const { auth } = await authFor(id, PASSWORD);
    await db
      .updateTable('encrypted_messages')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    const expired = await apiRequest(anonymous(), 'decrypt', { body: { id, auth } });
    const unknown = await apiRequest(anonymous(), 'decrypt', {
      body: { id: randomBytes(16).toString('base64url'), auth },
    });
    expect(expired.statusCode).toBe(403);
    expect(expired.rawPayload.equals(unknown.rawPayload)).toBe(true);

    // The hourly sweep then removes the row and the ciphertext itself.
    const { blob_hash } = await db
      .selectFrom('encrypted_messages')
      .select('blob_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await blobs.has(blob_hash)).toBe(true);
    expect(await sweepExpiredEncrypted({ db, blobs })).toBeGreaterThanOrEqual(1);
    // Other tests stored the very same ciphertext: it stays while their rows need it.
    expect(await blobs.has(blob_hash)).toBe(true);
    await db
      .updateTable('encrypted_messages')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    await sweepExpiredEncrypted({ db, blobs });
    expect(await blobs.has(blob_hash)).toBe(false);
    const left = await db.selectFrom('encrypted_messages').select('id').where('id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('a recipient opens the notice in the reader with messages/decrypt; another account cannot', async () => {
    const sealed = await sealedPromise;
    const { notice } = await store(sealed);
    const raw = await new MailComposer({
      from: annAccount.email,
      to: bobAccount.email,
      subject: notice.subject,
      text: notice.text,
      html: notice.html,
      headers: notice.headers,
    })
      .compile()
      .build();
    const folder = await systemFolder(db, bobAccount.id, 'inbox');
    const {
      outcomes: [delivered],
    } = await deliverToBob(raw);
    expect(delivered).toEqual({ ok: true });
    const message = (await inbox(bobAccount.id)).at(-1)!;
    expect(message.encrypted).toBe(true);
    const ref = { folder_id: folder.id, uid: message.uid };

    const params = await apiRequest(bob.browser, 'decryptMessage', { body: ref });
    expect(params.statusCode).toBe(200);
    expect(params.json()).toMatchObject({ key_salt: sealed.key_salt, auth_salt: sealed.auth_salt });
    const { key, auth } = await deriveSecrets(PASSWORD, sealed);
    const opened = await apiRequest(bob.browser, 'decryptMessage', { body: { ...ref, auth } });
    expect(opened.statusCode).toBe(200);
    expect((await decryptEnvelope(key, new Uint8Array(opened.rawPayload))).content).toBe(
      `<p>Body ${MARKER}</p>`,
    );

    const stranger = await apiRequest(ann.browser, 'decryptMessage', { body: { ...ref, auth } });
    expect(stranger.statusCode).toBe(404);
    const anon = await apiRequest(anonymous(), 'decryptMessage', { body: { ...ref, auth } });
    expect(anon.statusCode).toBe(401);
  });

  it('a forged notice header naming no live encrypted message does not mark mail encrypted', async () => {
    const raw = await new MailComposer({
      from: 'someone@elsewhere.example',
      to: bobAccount.email,
      subject: 'Encrypted message',
      text: `Open http://mailroom.localhost/decrypt?id=${randomBytes(16).toString('base64url')}`,
      headers: { 'X-Mailroom-Encrypted': randomBytes(16).toString('base64url') },
    })
      .compile()
      .build();
    await deliverToBob(raw);
    expect((await inbox(bobAccount.id)).at(-1)!.encrypted).toBe(false);
  });

  it('the notice names the sender and links to /decrypt in English and Russian, with a generic subject', async () => {
    const { id, notice, link } = await store(await sealedPromise);
    expect(link).toBe(`http://mailroom.localhost/decrypt?id=${id}`);
    expect(notice.subject).toBe('Encrypted message / Зашифрованное сообщение');
    expect(notice.text).toContain('Ann Sender');
    expect(notice.text).toContain(link);
    expect(notice.text).toContain('зашифрованное сообщение');
    expect(notice.html).toContain(`href="${link}"`);
    expect(notice.text).not.toContain(MARKER);
  });
});

describe('decrypt rate limit', () => {
  it('an IP that asks too often is refused with too_many_requests', async () => {
    const limited = await createTestApp({ env: { DECRYPT_RATE_LIMIT: '3' } });
    const browser = new Browser(limited.app);
    const body = { id: randomBytes(16).toString('base64url'), auth: randomBytes(32).toString('base64url') };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await apiRequest(browser, 'decrypt', { body })).statusCode);
    expect(statuses).toEqual([403, 403, 403, 429]);
  });
});
