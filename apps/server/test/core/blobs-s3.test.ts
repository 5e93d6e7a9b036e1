import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { DatabaseBlobStore, SMALL_BLOB_MAX_BYTES } from '../../src/core/blobs/index.js';
import { S3BlobStore } from '../../src/core/blobs/s3-blob-store.js';
import { migrate } from '../../src/core/db/index.js';
import { createEncryptedMessage, sweepExpiredEncrypted } from '../../src/encrypted/index.js';
import { decryptEnvelope, deriveSecrets, encryptMessage } from '../../../web/src/lib/crypto.js';
import { startDovecot } from '../../../../test-support/dovecot.js';
import { freePort, waitForPort } from '../../../../test-support/ports.js';
import { Browser, cleanup, createTestApp, testS3 } from '../_util.js';
import { mailUser } from '../_actions.js';
import { compose, upload } from '../_sending.js';
import { smtpTransport, startTestIngest } from '../_smtp.js';
import { addCollector, importDeps, syncNow } from '../_collectors.js';
import { createAccount } from '../_mail.js';
import { exited, prepareDatabase, startServer } from '../_server.js';
import { api, apiRequest, apiPath } from '../_client.js';

/**
 * Every blob path of the server on an S3 bucket (BLOB_STORE=s3, issue 19), against a real S3-compatible server on
 * loopback (s3rver): SMTP ingest of a message of several MiB (a multipart upload, 250 only once S3 has it), its
 * attachment read back by ranged GETs, compose uploads, encrypted messages, collectors' imports, the real server
 * process configured for S3, and an S3 that is down refusing mail with a 4xx rather than losing it.
 *
 * The web app and the SMTP ingest here are two "nodes": each opens its own store from the settings, on one database
 * and one bucket.
 */
const s3 = await testS3();
const ctx = await createTestApp({ env: s3.env });
const { app, db, config, blobs, events } = ctx;
const ingest = await startTestIngest({ db, env: s3.env });
const ann = await mailUser(ctx, 'Ann Lee');
const bob = await mailUser(ctx, 'Bo Chen');

/** The bucket as an operator sees it (a client of its own), and the byte ranges the app's own store asked for. */
const bucketDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-s3-observer-'));
const bucket = new S3BlobStore(s3.settings, bucketDir);
afterAll(async () => {
  bucket.close();
  await fs.rm(bucketDir, { recursive: true, force: true });
});
const sizeInBucket = async (hash: string) =>
  (await bucket.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: bucket.keyOf(hash) })))
    .ContentLength;

/** The S3 requests a node's store sends: the command, its byte range, and when S3 answered it. */
function recordRequests(store: unknown) {
  if (!(store instanceof DatabaseBlobStore) || !(store.files instanceof S3BlobStore))
    throw new Error('not on S3');
  const sent: { command: string; range: string | undefined; answeredAt: number }[] = [];
  store.files.client.middlewareStack.add(
    (next, context) => async (args) => {
      try {
        return await next(args);
      } finally {
        const input = args.input as { Range?: string };
        sent.push({ command: context.commandName ?? '?', range: input.Range, answeredAt: Date.now() });
      }
    },
    { step: 'initialize' },
  );
  return sent;
}
const ingestRequests = recordRequests(ingest.blobs);
const appRequests = recordRequests(blobs);

/** Large blob files a node kept on its own disk (none: they are all in the bucket), spool leftovers included. */
async function localFiles(dataDir: string) {
  const entries = await fs
    .readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true })
    .catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

async function newest(folderId: number) {
  return db
    .selectFrom('messages')
    .select(['uid', 'blob_hash', 'size', 'attachments', 'subject'])
    .where('folder_id', '=', folderId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

describe('blobs in S3', () => {
  it('a message of several MiB over SMTP goes up in parts before the 250, and its attachment downloads by ranged GETs', async () => {
    const photo = randomBytes(9 * 1024 * 1024);
    ingestRequests.length = 0;
    const info = await smtpTransport(ingest.port).sendMail({
      from: 'sender@example.org',
      to: ann.email,
      subject: 'Holiday photos',
      text: 'See attached.',
      attachments: [{ filename: 'photo.jpg', content: photo, contentType: 'image/jpeg' }],
    });
    const answered = Date.now();
    expect(info.response).toMatch(/^250 /);
    const got = await newest(ann.folders.inbox);
    expect(got.subject).toBe('Holiday photos');
    // Base64 makes the 9 MiB about 12.3 MiB: two 8 MiB parts, the upload completed before the 250.
    expect(got.size).toBeGreaterThan(12 * 1024 * 1024);
    expect(await sizeInBucket(got.blob_hash)).toBe(got.size);
    expect(ingestRequests.map((r) => r.command)).toEqual([
      'HeadObjectCommand',
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    expect(ingestRequests.at(-1)!.answeredAt).toBeLessThanOrEqual(answered);
    // Nothing stayed on the receiving node's disk: no blob file, no spooled message.
    expect(await localFiles(ingest.config.dataDir)).toEqual([]);
    expect(await db.selectFrom('blobs').select('hash').where('hash', '=', got.blob_hash).execute()).toEqual(
      [],
    );

    // The other node serves the attachment, read from inside the stored message by a ranged GET.
    const part = got.attachments[0]!;
    expect(part.part).toBeTruthy();
    appRequests.length = 0;
    const response = await apiRequest(ann.browser, 'attachment', {
      params: { id: part.id },
      query: { message_uid: got.uid, folder_id: ann.folders.inbox },
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(photo)).toBe(true);
    expect(appRequests.map((r) => [r.command, r.range])).toEqual([
      ['GetObjectCommand', `bytes=${part.part!.start}-${part.part!.end - 1}`],
    ]);
  });

  it('a large compose upload is kept in the bucket and sent from there, byte for byte', async () => {
    const report = randomBytes(400_000);
    const uploaded = await upload(app, ann.browser, 'report.pdf', report);
    expect(uploaded.status).toBe(200);
    const { blob_hash } = await db
      .selectFrom('compose_uploads')
      .select('blob_hash')
      .where('id', '=', uploaded.body.attachment.id)
      .executeTakeFirstOrThrow();
    expect(await sizeInBucket(blob_hash)).toBe(report.length);
    const sent = await api(ann.browser, 'sendMessage', {
      body: compose(ann.email, [bob.email], { attachments: [uploaded.body.attachment.id] }),
    });
    expect(sent.status).toBe(200);
    const got = await newest(bob.folders.inbox);
    expect(await bucket.has(got.blob_hash)).toBe(true);
    const response = await apiRequest(bob.browser, 'attachment', {
      params: { id: got.attachments[0]!.id },
      query: { message_uid: got.uid, folder_id: bob.folders.inbox },
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(report)).toBe(true);
    expect(await localFiles(config.dataDir)).toEqual([]);
  });

  it('an encrypted message with a large attachment is kept in the bucket, opened from there and swept from it', async () => {
    const password = 'a long pass phrase';
    const secret = randomBytes(SMALL_BLOB_MAX_BYTES + 50_000);
    const sealed = await encryptMessage(password, {
      subject: 'Contract',
      content: '<p>Signed copy attached</p>',
      content_type: 'text/html',
      attachments: [{ name: 'contract.pdf', type: 'application/pdf', bytes: new Uint8Array(secret) }],
    });
    const { id } = await createEncryptedMessage(
      { config, db, blobs },
      { accountId: ann.accountId, sender: { email: ann.email, name: 'Ann Lee' }, encryption: sealed },
    );
    const { blob_hash } = await db
      .selectFrom('encrypted_messages')
      .select('blob_hash')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(await sizeInBucket(blob_hash)).toBeGreaterThan(SMALL_BLOB_MAX_BYTES);

    const anonymous = new Browser(app);
    const params = (await apiRequest(anonymous, 'decryptParams', { params: { id } })).json() as Parameters<
      typeof deriveSecrets
    >[1];
    const { key, auth } = await deriveSecrets(password, params);
    const response = await apiRequest(anonymous, 'decrypt', { body: { id, auth } });
    expect(response.statusCode).toBe(200);
    const opened = await decryptEnvelope(key, new Uint8Array(response.rawPayload));
    expect(Buffer.from(opened.attachments[0]!.bytes).equals(secret)).toBe(true);

    await db
      .updateTable('encrypted_messages')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    expect(await sweepExpiredEncrypted({ db, blobs })).toBe(1);
    expect(await bucket.has(blob_hash)).toBe(false);
  });

  it("a collector's import of a large remote message stores it in the bucket", async () => {
    const dovecot = await startDovecot({ users: [{ user: 'vera', password: 'vera-pass' }] });
    cleanup(() => dovecot.stop());
    const scan = randomBytes(600_000);
    const raw = await new MailComposer({
      from: 'Vera <vera@remote.test>',
      to: 'vera@remote.test',
      subject: 'Scanned letter',
      messageId: '<scan.1@remote.test>',
      text: 'The scan.',
      attachments: [{ filename: 'scan.png', content: scan, contentType: 'image/png' }],
    })
      .compile()
      .build();
    const client = await dovecot.client('vera');
    await client.append('INBOX', raw, ['\\Seen']);
    await client.logout();

    // The collectors' engine on a third node: its own store from the same settings.
    const collectorNode = await createTestApp({ db, env: s3.env });
    const deps = await importDeps(db, { blobs: collectorNode.blobs, events });
    const row = await addCollector(db, bob.accountId, dovecot, 'vera', 'vera-pass');
    const synced = await syncNow(deps, row.id);
    expect(synced.last_error).toBeNull();
    const message = await db
      .selectFrom('messages')
      .select(['blob_hash', 'size', 'attachments', 'uid', 'folder_id'])
      .where('account_id', '=', bob.accountId)
      .where('subject', '=', 'Scanned letter')
      .executeTakeFirstOrThrow();
    expect(await sizeInBucket(message.blob_hash)).toBe(raw.length);
    expect((await bucket.get(message.blob_hash)).equals(raw)).toBe(true);
    const response = await apiRequest(bob.browser, 'attachment', {
      params: { id: message.attachments[0]!.id },
      query: { message_uid: message.uid, folder_id: message.folder_id },
    });
    expect(response.rawPayload.equals(scan)).toBe(true);
  });

  it(
    'the server process configured with BLOB_STORE=s3 keeps what it receives in the bucket',
    { timeout: 240_000 },
    async () => {
      const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-s3-server-'));
      cleanup(() => fs.rm(dataDir, { recursive: true, force: true }));
      const database = await prepareDatabase(dataDir);
      const serverDb = await database.open();
      await migrate(serverDb);
      const account = await createAccount(serverDb, 'Process Test');
      await serverDb.destroy();
      const smtpPort = await freePort();
      const server = startServer({
        ...s3.env,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        SMTP_PORT: String(smtpPort),
        LOG_LEVEL: 'error',
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      });
      await waitForPort(smtpPort, server);
      const bytes = randomBytes(SMALL_BLOB_MAX_BYTES);
      const raw = await new MailComposer({
        from: 'sender@example.org',
        to: account.email,
        subject: 'To the process',
        attachments: [{ filename: 'a.bin', content: bytes }],
      })
        .compile()
        .build();
      const info = await smtpTransport(smtpPort).sendMail({
        envelope: { from: 'sender@example.org', to: [account.email] },
        raw,
      });
      expect(info.response).toMatch(/^250 /);
      server.kill('SIGTERM');
      await exited(server);
      const reopened = await database.open();
      const message = await reopened
        .selectFrom('messages')
        .select('blob_hash')
        .where('account_id', '=', account.id)
        .executeTakeFirstOrThrow();
      await reopened.destroy();
      expect(await sizeInBucket(message.blob_hash)).toBeGreaterThan(SMALL_BLOB_MAX_BYTES);
      expect((await bucket.get(message.blob_hash)).toString().includes('Subject: To the process')).toBe(true);
      expect(await localFiles(dataDir)).toEqual([]);
    },
  );

  it("uploading bytes another member stored writes them to S3 again, as new bytes; the uploader's own are not", async () => {
    const report = randomBytes(SMALL_BLOB_MAX_BYTES + 100_000);
    const commands = async (who: typeof ann) => {
      appRequests.length = 0;
      const uploaded = await upload(app, who.browser, 'shared.pdf', report);
      expect(uploaded.status).toBe(200);
      return appRequests.map((r) => r.command);
    };
    // New bytes: uploaded without asking S3 whether it has them (the uploader has no upload of them).
    expect(await commands(ann)).toEqual(['PutObjectCommand']);
    // The same bytes from another member cost the same PUT: nothing in the upload's time tells Bo that Ann has them.
    expect(await commands(bob)).toEqual(['PutObjectCommand']);
    // Ann's own upload again: a HEAD finds the blob written just now, nothing is uploaded.
    expect(await commands(ann)).toEqual(['HeadObjectCommand']);
    // Still one object: the key is the content's hash whoever uploads it.
    const hashes = await db
      .selectFrom('compose_uploads')
      .select('blob_hash')
      .distinct()
      .where('name', '=', 'shared.pdf')
      .execute();
    expect(hashes).toHaveLength(1);
    expect(await sizeInBucket(hashes[0]!.blob_hash)).toBe(report.length);
  });

  it('with S3 down an attachment download and an upload answer 503 storage_unavailable, and leave nothing behind', async () => {
    const scan = randomBytes(SMALL_BLOB_MAX_BYTES * 2);
    const info = await smtpTransport(ingest.port).sendMail({
      from: 'sender@example.org',
      to: ann.email,
      subject: 'Before the outage',
      text: 'Scan attached.',
      attachments: [{ filename: 'scan.bin', content: scan }],
    });
    expect(info.response).toMatch(/^250 /);
    const got = await newest(ann.folders.inbox);
    const url = apiPath('attachment', {
      params: { id: got.attachments[0]!.id },
      query: { message_uid: got.uid, folder_id: ann.folders.inbox },
    });
    await s3.kill();
    try {
      const download = await ann.browser.get(url);
      expect(download.statusCode).toBe(503);
      expect(download.json()).toMatchObject({ error: { meta: { code: 503, i8s: 'storage_unavailable' } } });
      const uploaded = await upload(app, ann.browser, 'outage.pdf', randomBytes(SMALL_BLOB_MAX_BYTES + 1000));
      expect(uploaded.status).toBe(503);
      expect(uploaded.body).toMatchObject({ error: { meta: { code: 503, i8s: 'storage_unavailable' } } });
      // The spooled upload is gone, not left for the sweep.
      expect(await localFiles(config.dataDir)).toEqual([]);
    } finally {
      await s3.start();
    }
    const response = await ann.browser.get(url);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(scan)).toBe(true);
  });

  it('with S3 down a large message is refused with a 4xx and nothing is stored; once S3 is back it is accepted', async () => {
    const before = await db
      .selectFrom('messages')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('account_id', '=', bob.accountId)
      .executeTakeFirstOrThrow();
    const mail = {
      from: 'sender@example.org',
      to: bob.email,
      subject: 'During the outage',
      text: 'Big enough for the bucket.',
      attachments: [{ filename: 'data.bin', content: randomBytes(SMALL_BLOB_MAX_BYTES * 2) }],
    };
    await s3.kill();
    try {
      const refused = await smtpTransport(ingest.port)
        .sendMail(mail)
        .then(
          (info) => ({ code: Number(info.response.slice(0, 3)) }),
          (err: { responseCode?: number }) => ({ code: err.responseCode }),
        );
      expect(refused.code).toBeGreaterThanOrEqual(400);
      expect(refused.code).toBeLessThan(500);
      // A small message does not need the bucket: its blob is a database row.
      const small = await smtpTransport(ingest.port).sendMail({ ...mail, subject: 'Small', attachments: [] });
      expect(small.response).toMatch(/^250 /);
    } finally {
      await s3.start();
    }
    const after = await db
      .selectFrom('messages')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .where('account_id', '=', bob.accountId)
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);
    expect(await localFiles(ingest.config.dataDir)).toEqual([]);

    // The sender's retry.
    const info = await smtpTransport(ingest.port).sendMail(mail);
    expect(info.response).toMatch(/^250 /);
    const got = await newest(bob.folders.inbox);
    expect(got.subject).toBe('During the outage');
    expect(await sizeInBucket(got.blob_hash)).toBe(got.size);
  });
});
