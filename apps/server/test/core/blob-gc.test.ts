import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { appBlobReferences } from '../../src/app.js';
import {
  SMALL_BLOB_MAX_BYTES,
  collectBlobs,
  openBlobStore,
  spoolPath,
  startBlobCollector,
  type BlobReferences,
} from '../../src/core/blobs/index.js';
import { openDatabase, type Db } from '../../src/core/db/index.js';
import { createEncryptedMessage } from '../../src/encrypted/index.js';
import { blobHash } from '../../src/core/blobs/index.js';
import { parseMessage, storeMessage } from '../../src/mailbox/index.js';
import { encryptMessage } from '../../../web/src/lib/crypto.js';
import { mailUser, type MailUser } from '../_actions.js';
import { composeRaw } from '../_mail.js';
import { compose, upload } from '../_sending.js';
import { cleanup, createTestApp, freshPostgresDatabase } from '../_util.js';
import { api } from '../_client.js';

// On PostgreSQL (DATABASE_URL) the second "process" of the last test opens a pool of its own on the same database.
const pg = process.env.DATABASE_URL ? await freshPostgresDatabase(process.env.DATABASE_URL) : null;
const ctx = await createTestApp(pg ? { db: pg.db } : {});
const { app, db, blobs, config } = ctx;
const referenced = appBlobReferences(db);
const ann = await mailUser(ctx, 'Ann Lee');
const bob = await mailUser(ctx, 'Bob Stone');

const HOUR = 3600_000;
/** The grace period of these tests: a blob written less than an hour ago is kept whatever points at it. */
const GRACE = HOUR;
const blobRoot = path.join(config.dataDir, 'blobs');
const fileOf = (hash: string) => path.join(blobRoot, hash.slice(0, 2), hash);

/** Makes blobs look written `ago` ms ago, as they would after that long: the row's time, the file's. */
async function age(hashes: string[], ago = 2 * GRACE) {
  const when = new Date(Date.now() - ago);
  for (const hash of hashes) {
    await sql`update blobs set written_at = ${when} where hash = ${hash}`.execute(db);
    await fs.utimes(fileOf(hash), when, when).catch(() => {});
  }
}

const collect = (refs: BlobReferences = referenced) =>
  collectBlobs({ store: blobs, referenced: refs, graceMs: GRACE });

/** A message of `size` bytes or so: small ones are rows of `blobs`, large ones files. */
const rawMessage = (size: number, to = ann.email) =>
  composeRaw({
    from: 'carol@example.com',
    to,
    subject: `Report ${randomBytes(4).toString('hex')}`,
    text:
      `${randomBytes(8).toString('hex')}\n` + 'The quarterly numbers are in.\n'.repeat(Math.ceil(size / 30)),
  });

async function store(user: MailUser, raw: Buffer) {
  const { message } = await storeMessage(db, blobs, {
    accountId: user.accountId,
    folderId: user.folders.inbox,
    raw,
    parsed: await parseMessage(raw),
    flags: { seen: false, flagged: false },
  });
  return { ...message, blobHash: blobHash(raw) };
}

/** Deletes the user's messages of this blob for good, as the user does: Inbox → Trash → gone. */
async function deleteForGood(user: MailUser, hash: string) {
  for (;;) {
    const rows = await db
      .selectFrom('messages')
      .select(['folder_id', 'uid'])
      .where('account_id', '=', user.accountId)
      .where('blob_hash', '=', hash)
      .execute();
    if (rows.length === 0) return;
    const folder_messages = rows.map((r) => ({ folder_id: r.folder_id, message_uids: [r.uid] }));
    expect((await api(user.browser, 'deleteMessages', { body: { folder_messages } })).status).toBe(200);
  }
}

const sizes = [
  ['kept in the database', 4_000],
  ['kept as a file', SMALL_BLOB_MAX_BYTES + 50_000],
] as const;

describe('the blob collector', () => {
  it.each(sizes)(
    'a blob shared by two messages survives the deletion of one and goes after both (%s)',
    async (_where, size) => {
      const raw = await rawMessage(size);
      const first = await store(ann, raw);
      const second = await store(bob, raw);
      const hash = first.blobHash;
      expect(second.blobHash).toBe(hash);
      if (size > SMALL_BLOB_MAX_BYTES) await fs.access(fileOf(hash));

      await deleteForGood(ann, hash);
      await age([hash]);
      await collect();
      expect((await blobs.get(hash)).equals(raw)).toBe(true);

      await deleteForGood(bob, hash);
      // Within the grace period nothing goes, referenced or not.
      await age([hash], GRACE / 2);
      await collect();
      expect(await blobs.has(hash)).toBe(true);

      await age([hash]);
      const done = await collect();
      expect(done.removed).toBeGreaterThanOrEqual(1);
      expect(await blobs.has(hash)).toBe(false);
      await expect(fs.access(fileOf(hash))).rejects.toThrow();
    },
  );

  it.each(sizes)(
    'an old unreferenced blob a new ingest puts again while the sweep looks it up survives (%s)',
    async (_where, size) => {
      const raw = await rawMessage(size);
      const hash = (await store(ann, raw)).blobHash;
      await deleteForGood(ann, hash);
      await age([hash]);
      // The ingest's put lands after the collector listed the blob as old and before it asks who needs it; its
      // message commits after the collector's answer (nobody), as a slow ingest's would.
      const refs: BlobReferences = async (hashes) => {
        if (hashes.includes(hash)) await blobs.put(raw);
        return referenced(hashes);
      };
      await collect(refs);
      const again = await store(bob, raw);
      expect(again.blobHash).toBe(hash);
      expect((await blobs.get(hash)).equals(raw)).toBe(true);

      // And a put just before the sweep makes the blob new again: not even looked at.
      await deleteForGood(bob, hash);
      await age([hash]);
      await blobs.put(raw);
      expect((await collect()).examined).toBe(0);
      expect(await blobs.has(hash)).toBe(true);
    },
  );

  it('an upload, a draft, an outbox message and an encrypted message keep their blobs while they exist', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(SMALL_BLOB_MAX_BYTES + 10_000)]);
    const uploaded = await upload(app, ann.browser, 'report.pdf', pdf);
    expect(uploaded.status).toBe(200);
    const uploadRow = await db
      .selectFrom('compose_uploads')
      .select(['id', 'blob_hash'])
      .where('id', '=', uploaded.body.attachment.id)
      .executeTakeFirstOrThrow();

    const draft = await api(ann.browser, 'saveDraft', { body: compose(ann.email, [], { subject: 'Draft' }) });
    expect(draft.status).toBe(200);
    const draftHash = (
      await db
        .selectFrom('messages')
        .select('blob_hash')
        .where('account_id', '=', ann.accountId)
        .where('folder_id', '=', ann.folders.draft)
        .where('uid', '=', draft.body.message.uid)
        .executeTakeFirstOrThrow()
    ).blob_hash;

    // A message to a remote address waits in the outbox (no outbox job runs here); its bytes are not the Sent copy's.
    const sent = await api(ann.browser, 'sendMessage', { body: compose(ann.email, ['dave@example.com']) });
    expect(sent.status).toBe(200);
    const outboxHash = (
      await db
        .selectFrom('outbox')
        .select('blob_hash')
        .where('account_id', '=', ann.accountId)
        .executeTakeFirstOrThrow()
    ).blob_hash;
    expect(
      await db.selectFrom('messages').select('id').where('blob_hash', '=', outboxHash).executeTakeFirst(),
    ).toBeUndefined();

    const sealed = await encryptMessage('Tr0ub4dor-and-3', {
      subject: 'Sealed',
      content: '<p>secret</p>',
      content_type: 'text/html',
      attachments: [],
    });
    const { size: _size, ...encryption } = sealed;
    const encrypted = await createEncryptedMessage(
      { config, db, blobs },
      { accountId: ann.accountId, sender: { email: ann.email, name: 'Ann' }, encryption },
    );
    const encryptedHash = (
      await db
        .selectFrom('encrypted_messages')
        .select('blob_hash')
        .where('id', '=', encrypted.id)
        .executeTakeFirstOrThrow()
    ).blob_hash;

    // A message stored before attachments became ranges of the message kept each attachment as a blob of its own.
    const legacyAttachment = randomBytes(2_000);
    const legacyHash = (await blobs.put(legacyAttachment)).hash;
    const legacy = await store(ann, await rawMessage(1_000));
    await sql`
      update messages set attachments = ${JSON.stringify([
        {
          id: 0,
          name: 'old.bin',
          size: legacyAttachment.length,
          content_type: 'application/octet-stream',
          content_id: null,
          inline: false,
          blob_hash: legacyHash,
        },
      ])}::jsonb, has_attachments = true
      where id = ${legacy.id}`.execute(db);

    const held = [uploadRow.blob_hash, draftHash, outboxHash, encryptedHash, legacyHash];
    await age(held);
    await collect();
    for (const hash of held) expect(await blobs.has(hash), hash).toBe(true);

    // Once what pointed at each is gone, the next sweep after the grace period takes it.
    await db.deleteFrom('compose_uploads').where('id', '=', uploadRow.id).execute();
    expect((await api(ann.browser, 'discardDraft', { params: { uid: draft.body.message.uid } })).status).toBe(
      200,
    );
    await db.deleteFrom('outbox').where('account_id', '=', ann.accountId).execute();
    await db.deleteFrom('encrypted_messages').where('id', '=', encrypted.id).execute();
    await sql`update messages set attachments = '[]'::jsonb where id = ${legacy.id}`.execute(db);
    await age(held);
    await collect();
    for (const hash of held) expect(await blobs.has(hash), hash).toBe(false);
    // The message whose old attachment went is still there, with its own blob.
    expect(await blobs.has(legacy.blobHash)).toBe(true);
  });

  it("sweeps the spool's leftovers older than the limit, and a put's temporary file left in a blob folder", async () => {
    await fs.mkdir(blobs.spoolDir, { recursive: true });
    const old = spoolPath(blobs.spoolDir);
    const fresh = spoolPath(blobs.spoolDir);
    await fs.writeFile(old, 'half a message');
    await fs.writeFile(fresh, 'a message arriving now');
    const folder = path.join(blobRoot, 'ab');
    await fs.mkdir(folder, { recursive: true });
    const oldTemp = path.join(folder, '.tmp-0123456789abcdef');
    await fs.writeFile(oldTemp, 'half a blob');
    const dayAgo = new Date(Date.now() - 25 * HOUR);
    await fs.utimes(old, dayAgo, dayAgo);
    await fs.utimes(oldTemp, dayAgo, dayAgo);

    const done = await collect();
    expect(done.spoolFiles).toBe(2);
    await expect(fs.access(old)).rejects.toThrow();
    await expect(fs.access(oldTemp)).rejects.toThrow();
    await fs.access(fresh);
    await fs.rm(fresh);
  });

  it('two processes running the job at once sweep once', async () => {
    const second: Db = pg ? await openDatabase({ kind: 'postgres', url: pg.url }) : db;
    if (pg) cleanup(() => second.destroy());
    const raws = await Promise.all([rawMessage(3_000), rawMessage(SMALL_BLOB_MAX_BYTES + 1_000)]);
    const hashes: string[] = [];
    for (const raw of raws) hashes.push((await blobs.put(raw)).hash);
    await age(hashes);

    const sweeps: object[] = [];
    const asked: string[][] = [];
    const stores = await Promise.all([db, second].map((processDb) => openBlobStore(processDb, blobRoot)));
    const processes = [db, second].map((processDb, i) => {
      const refs = appBlobReferences(processDb);
      return startBlobCollector({
        db: processDb,
        store: stores[i]!,
        referenced: async (batch) => {
          asked.push(batch);
          return refs(batch);
        },
        graceMs: GRACE,
        checkMs: 10,
        log: { warn: () => {}, info: (done) => void sweeps.push(done) },
      });
    });
    await vi.waitFor(async () => expect(await blobs.has(hashes[1]!)).toBe(false), { timeout: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await Promise.all(processes.map((p) => p.stop()));

    expect(await blobs.has(hashes[0]!)).toBe(false);
    expect(sweeps).toHaveLength(1);
    expect(sweeps[0]).toMatchObject({ removed: 2 });
    expect(asked.filter((batch) => batch.includes(hashes[0]!))).toHaveLength(1);
    const job = await db
      .selectFrom('jobs')
      .select('run_at')
      .where('kind', '=', 'recurring')
      .where('key', '=', 'blob-collector')
      .executeTakeFirstOrThrow();
    expect(job.run_at.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
  });
});
