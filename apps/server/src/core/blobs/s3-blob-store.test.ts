import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startS3 } from '../../../../../test-support/s3.js';
import { BlobTooLargeError, MissingBlobError, blobHash } from './blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

const s3 = await startS3();
const spoolRoot = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-s3-spool-'));
// Parts of 5 MiB (S3's smallest) so a multipart upload needs no huge test blob.
const store = new S3BlobStore(s3.settings, spoolRoot, { partBytes: 5 * 1024 * 1024, listPageSize: 2 });
afterAll(async () => {
  store.close();
  await s3.stop();
  await fs.rm(spoolRoot, { recursive: true, force: true });
});

/** The S3 operations the store sent, in order (its client's own record of them). */
const sent: string[] = [];
store.client.middlewareStack.add(
  (next, context) => (args) => {
    sent.push(context.commandName ?? '?');
    return next(args);
  },
  { step: 'initialize' },
);
beforeEach(() => void (sent.length = 0));

const spoolFiles = async () => (await fs.readdir(store.spoolDir).catch(() => [])).length;

describe('the S3 blob store', () => {
  it('keeps a blob under its hash, two levels deep, and reads it back whole and by range', async () => {
    const data = Buffer.from('0123456789');
    const { hash, size } = await store.put(data);
    expect({ hash, size }).toEqual({ hash: blobHash(data), size: 10 });
    const head = await store.client.send(
      new HeadObjectCommand({
        Bucket: s3.bucket,
        Key: `blobs/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`,
      }),
    );
    expect(head.ContentLength).toBe(10);
    expect(await store.has(hash)).toBe(true);
    expect((await store.get(hash)).toString()).toBe('0123456789');
    expect((await buffer(await store.stream(hash))).toString()).toBe('0123456789');
    sent.length = 0;
    expect((await buffer(await store.stream(hash, { start: 2, end: 5 }))).toString()).toBe('234');
    expect(sent).toEqual(['GetObjectCommand']);
    // An empty range, and one past the end, read nothing.
    expect((await buffer(await store.stream(hash, { start: 4, end: 4 }))).length).toBe(0);
    expect((await buffer(await store.stream(hash, { start: 20, end: 30 }))).length).toBe(0);
  });

  it('does not upload a blob it has already', async () => {
    const data = Buffer.from('stored twice');
    await store.put(data);
    expect(sent).toEqual(['HeadObjectCommand', 'PutObjectCommand']);
    sent.length = 0;
    expect(await store.put(data)).toEqual({ hash: blobHash(data), size: data.length });
    expect(sent).toEqual(['HeadObjectCommand']);
    sent.length = 0;
    await store.putStream(Readable.from([data]));
    expect(sent).toEqual(['HeadObjectCommand']);
    expect(await spoolFiles()).toBe(0);
  });

  it('uploads a large spooled message in parts, then removes the spooled file', async () => {
    const chunks = [0, 1, 2].map((i) => Buffer.alloc(4 * 1024 * 1024, 65 + i));
    const whole = Buffer.concat(chunks);
    const spool = store.openSpool();
    const { pipeline } = await import('node:stream/promises');
    await pipeline(Readable.from(chunks), spool);
    const file = spool.file();
    expect(await store.keepSpooled(file)).toEqual({ hash: blobHash(whole), size: whole.length });
    expect(sent).toContain('CreateMultipartUploadCommand');
    expect(sent.filter((c) => c === 'UploadPartCommand')).toHaveLength(3);
    expect(sent).toContain('CompleteMultipartUploadCommand');
    await expect(fs.access(file.path)).rejects.toThrow();
    expect((await store.get(file.hash)).equals(whole)).toBe(true);
    // A range across the first part's end.
    const start = 5 * 1024 * 1024 - 3;
    expect((await buffer(await store.stream(file.hash, { start, end: start + 6 }))).toString()).toBe(
      'BBBBBB',
    );
  });

  it('stops a stream past its limit, keeping nothing', async () => {
    const big = Readable.from([Buffer.alloc(600, 1), Buffer.alloc(600, 2)]);
    await expect(store.putStream(big, { maxBytes: 1000 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await store.has(blobHash(Buffer.concat([Buffer.alloc(600, 1), Buffer.alloc(600, 2)])))).toBe(
      false,
    );
    expect(await spoolFiles()).toBe(0);
  });

  it('a missing blob is a missing-blob error (ENOENT) before any byte is read, and has() says no', async () => {
    const missing = '0'.repeat(64);
    expect(await store.has(missing)).toBe(false);
    await expect(store.get(missing)).rejects.toBeInstanceOf(MissingBlobError);
    await expect(store.stream(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.stream(missing, { start: 1, end: 4 })).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.stream(missing, { start: 1, end: 1 })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("a put of a blob the bucket holds makes it new again, so the collector's removal of it since then keeps it", async () => {
    const fresh = new S3BlobStore(s3.settings, spoolRoot, { refreshAfterMs: 0 });
    try {
      const data = Buffer.from('put, swept at, put again');
      const { hash } = await fresh.put(data);
      const first = (
        await fresh.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: fresh.keyOf(hash) }))
      ).LastModified!;
      // LastModified has whole seconds: the second put must come in a later second to show.
      await new Promise((r) => setTimeout(r, 1100));
      const checkedAt = new Date();
      await fresh.put(data);
      expect(await fresh.removeIfNotWrittenSince(hash, checkedAt)).toBe(false);
      expect(await fresh.has(hash)).toBe(true);
      const second = (
        await fresh.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: fresh.keyOf(hash) }))
      ).LastModified!;
      expect(second.getTime()).toBeGreaterThan(first.getTime());
      // Not written since a moment from now: removed.
      expect(await fresh.removeIfNotWrittenSince(hash, new Date(Date.now() + 60_000))).toBe(true);
      expect(await fresh.has(hash)).toBe(false);
      expect(await fresh.removeIfNotWrittenSince(hash, new Date(Date.now() + 60_000))).toBe(false);
    } finally {
      fresh.close();
    }
  });

  it('removes a blob', async () => {
    const { hash } = await store.put(Buffer.from('to be removed'));
    await store.remove(hash);
    expect(await store.has(hash)).toBe(false);
    await expect(store.get(hash)).rejects.toMatchObject({ code: 'ENOENT' });
    // Removing it again is no error.
    await store.remove(hash);
  });

  it('lists every blob over several pages, with size and time', async () => {
    const written = await Promise.all(
      ['one', 'two', 'three', 'four', 'five'].map((s) => store.put(Buffer.from(s))),
    );
    const gone = await store.put(Buffer.from('six, removed'));
    await store.remove(gone.hash);
    sent.length = 0;
    const listed = new Map<string, { size: number; modifiedAt: Date }>();
    for await (const blob of store.list()) listed.set(blob.hash, blob);
    expect(sent.filter((c) => c === 'ListObjectsV2Command').length).toBeGreaterThan(2);
    for (const { hash, size } of written) {
      expect(listed.get(hash)?.size).toBe(size);
      expect(Math.abs(Date.now() - listed.get(hash)!.modifiedAt.getTime())).toBeLessThan(120_000);
    }
    expect(listed.has(gone.hash)).toBe(false);
  });

  it('with S3 down, storing and asking reject rather than answer "not there"', async () => {
    const { hash } = await store.put(Buffer.from('before the outage'));
    await s3.kill();
    try {
      await expect(store.has(hash)).rejects.toThrow();
      await expect(store.put(Buffer.from('during the outage'))).rejects.toThrow();
      const spool = store.openSpool();
      const { pipeline } = await import('node:stream/promises');
      await pipeline(Readable.from([Buffer.from('spooled during the outage')]), spool);
      await expect(store.keepSpooled(spool.file())).rejects.toThrow();
      // The spooled file stays for the caller to discard.
      await fs.access(spool.file().path);
      await store.discardSpooled(spool.file());
    } finally {
      await s3.start();
    }
    expect((await store.get(hash)).toString()).toBe('before the outage');
  });
});
