import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  DatabaseBlobStore,
  FsBlobStore,
  SMALL_BLOB_MAX_BYTES,
  blobHash,
} from '../../src/core/blobs/index.js';
import { cleanup, createTestDb } from '../_util.js';

const db = await createTestDb();
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-dbblobs-'));
cleanup(() => fs.rm(root, { recursive: true, force: true }));
const files = new FsBlobStore(root);
const store = new DatabaseBlobStore(db, files);

const mail = (n: number) =>
  Buffer.from(
    `From: a@example.com\r\nSubject: report ${n}\r\n\r\n` + 'The quarterly numbers are in.\r\n'.repeat(60),
  );
const row = (hash: string) =>
  sql<{ size: number; codec: number; stored: number }>`
    select size, codec, octet_length(data) as stored from blobs where hash = ${hash}`.execute(db);

describe('blobs kept in the database', () => {
  it('many blobs at once: the small ones in the database (the same bytes twice once), a large one as a file', async () => {
    const small = [mail(101), mail(102), mail(101)];
    const large = randomBytes(SMALL_BLOB_MAX_BYTES + 10);
    const refs = await store.putMany([...small, large]);
    expect(refs).toEqual([...small, large].map((d) => ({ hash: blobHash(d), size: d.length })));
    expect((await row(blobHash(small[0]!))).rows).toHaveLength(1);
    expect(await files.has(blobHash(large))).toBe(true);
    for (const d of [...small, large]) expect((await store.get(blobHash(d))).equals(d)).toBe(true);
  });

  it('a small message is kept compressed in the database, not as a file, and reads back byte for byte', async () => {
    const data = mail(1);
    const { hash, size } = await store.put(data);
    expect([hash, size]).toEqual([blobHash(data), data.length]);
    const [stored] = (await row(hash)).rows;
    expect(stored).toMatchObject({ size: data.length, codec: 1 });
    expect(Number(stored!.stored)).toBeLessThan(data.length / 3);
    expect(await files.has(hash)).toBe(false);
    expect((await store.get(hash)).equals(data)).toBe(true);
    expect((await buffer(await store.stream(hash))).equals(data)).toBe(true);
    expect(await store.has(hash)).toBe(true);
  });

  it('reads a byte range of a small blob, and an empty range as nothing', async () => {
    const { hash } = await store.put(mail(2));
    expect((await buffer(await store.stream(hash, { start: 2, end: 6 }))).toString()).toBe('om: ');
    expect((await buffer(await store.stream(hash, { start: 5, end: 5 }))).length).toBe(0);
  });

  it('bytes that do not compress are kept as they are', async () => {
    const data = randomBytes(10_000);
    const { hash } = await store.put(data);
    expect((await row(hash)).rows[0]).toMatchObject({ codec: 0 });
    expect((await store.get(hash)).equals(data)).toBe(true);
  });

  it('a blob above the small size stays a file, streamed from disk', async () => {
    const data = Buffer.alloc(SMALL_BLOB_MAX_BYTES + 1, 'x');
    const { hash } = await store.put(data);
    expect((await row(hash)).rows).toHaveLength(0);
    expect(await files.has(hash)).toBe(true);
    expect((await buffer(await store.stream(hash, { start: 10, end: 20 }))).toString()).toBe('x'.repeat(10));
  });

  it('a spooled small message moves into the database and its spool file is gone', async () => {
    const data = mail(3);
    const kept = await store.putStream(Readable.from([data]));
    expect((await row(kept.hash)).rows).toHaveLength(1);
    expect(await fs.readdir(store.spoolDir)).toEqual([]);
    expect((await store.get(kept.hash)).equals(data)).toBe(true);
  });

  it('the same bytes stored twice are one row', async () => {
    const data = mail(4);
    await Promise.all([store.put(data), store.put(data), store.putStream(Readable.from([data]))]);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from blobs where hash = ${blobHash(data)}`.execute(db);
    expect(rows[0]!.n).toBe(1);
  });

  it('a blob written as a file before small blobs moved into the database is still read', async () => {
    const data = mail(5);
    const { hash } = await files.put(data);
    expect((await store.get(hash)).equals(data)).toBe(true);
    expect(await store.has(hash)).toBe(true);
  });

  it('removing a blob removes it wherever it is', async () => {
    const small = await store.put(mail(6));
    const large = await store.put(Buffer.alloc(SMALL_BLOB_MAX_BYTES + 10, 'y'));
    await store.remove(small.hash);
    await store.remove(large.hash);
    expect(await store.has(small.hash)).toBe(false);
    expect(await store.has(large.hash)).toBe(false);
  });
});
