import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { FsBlobStore, blobHash } from './blob-store.js';

const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-blobs-'));
afterAll(() => fs.rm(root, { recursive: true, force: true }));
const store = new FsBlobStore(root);

describe('the file blob store', () => {
  it('keeps blobs in one level of 256 folders', async () => {
    const { hash } = await store.put(Buffer.from('one level'));
    expect(await fs.readFile(path.join(root, hash.slice(0, 2), hash), 'utf8')).toBe('one level');
  });

  it('a stream whose bytes the uploader may not re-use is written over the blob already there, not dropped', async () => {
    const data = Buffer.from('bytes another account stored');
    const { hash } = await store.put(data);
    const file = path.join(root, hash.slice(0, 2), hash);
    const before = (await fs.stat(file)).ino;
    // Re-used (the default): the stored file stays, the spooled one is dropped.
    await store.putStream(Readable.from([data]));
    expect((await fs.stat(file)).ino).toBe(before);
    // Not re-usable: the spooled file is renamed into place as new bytes are, same content, same key.
    const asked: string[] = [];
    const put = await store.putStream(Readable.from([data]), {
      reuse: (h) => (asked.push(h), Promise.resolve(false)),
    });
    expect(put).toEqual({ hash, size: data.length });
    expect(asked).toEqual([hash]);
    expect((await fs.stat(file)).ino).not.toBe(before);
    expect((await fs.readFile(file)).equals(data)).toBe(true);
    expect(await fs.readdir(store.spoolDir)).toEqual([]);
  });

  it('reads a byte range of a blob, and an empty range as nothing', async () => {
    const { hash } = await store.put(Buffer.from('0123456789'));
    expect((await buffer(await store.stream(hash, { start: 2, end: 5 }))).toString()).toBe('234');
    expect((await buffer(await store.stream(hash, { start: 4, end: 4 }))).length).toBe(0);
    expect((await buffer(await store.stream(hash))).toString()).toBe('0123456789');
  });

  it('still finds, reads, streams and removes a blob written in the two-level layout of before', async () => {
    const data = Buffer.from('written the old way');
    const hash = blobHash(data);
    const old = path.join(root, hash.slice(0, 2), hash.slice(2, 4), hash);
    await fs.mkdir(path.dirname(old), { recursive: true });
    await fs.writeFile(old, data);
    expect(await store.has(hash)).toBe(true);
    expect((await store.get(hash)).equals(data)).toBe(true);
    expect((await buffer(await store.stream(hash, { start: 8, end: 11 }))).toString()).toBe('the');
    // Stored again, it is not written a second time.
    expect(await store.put(data)).toEqual({ hash, size: data.length });
    await expect(fs.access(path.join(root, hash.slice(0, 2), hash))).rejects.toThrow();
    await store.remove(hash);
    expect(await store.has(hash)).toBe(false);
  });

  it('lists its blobs in either layout with their sizes, and not the spool or temporary files', async () => {
    const dir = await fs.mkdtemp(path.join(root, 'list-'));
    const own = new FsBlobStore(dir);
    const { hash } = await own.put(Buffer.from('listed'));
    const old = blobHash(Buffer.from('listed the old way'));
    const oldPath = path.join(
      (own as unknown as { root: string }).root,
      old.slice(0, 2),
      old.slice(2, 4),
      old,
    );
    await fs.mkdir(path.dirname(oldPath), { recursive: true });
    await fs.writeFile(oldPath, 'listed the old way');
    const { Readable } = await import('node:stream');
    await fs.mkdir(own.spoolDir, { recursive: true });
    await (await import('./spool.js')).writeSpool(Readable.from([Buffer.from('spooled')]), own.spoolDir);
    const listed = [];
    for await (const blob of own.list()) listed.push(blob);
    expect(listed.map((b) => [b.hash, b.size]).sort()).toEqual(
      [
        [hash, 6],
        [old, 18],
      ].sort(),
    );
    expect(listed.every((b) => b.modifiedAt instanceof Date)).toBe(true);
  });

  it('a missing blob rejects before any byte is read', async () => {
    await expect(store.stream('0'.repeat(64))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a spool', () => {
  it('keeps the bytes of a small spool in memory without writing a file, and writes a larger one to its file', async () => {
    const { Readable } = await import('node:stream');
    const { writeSpool } = await import('./spool.js');
    const dir = path.join(root, 'spool');
    const small = await writeSpool(Readable.from([Buffer.from('a small '), Buffer.from('message')]), dir, {
      syncAbove: 64,
    });
    expect(small.bytes?.toString()).toBe('a small message');
    await expect(fs.access(small.path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(small.hash).toBe(blobHash(Buffer.from('a small message')));
    const large = await writeSpool(Readable.from([Buffer.alloc(40, 1), Buffer.alloc(40, 2)]), dir, {
      syncAbove: 64,
    });
    expect(large.bytes).toBeUndefined();
    expect(large.size).toBe(80);
    // What memory held before the size passed the bound went to the file first, in order.
    expect(await fs.readFile(large.path)).toEqual(Buffer.concat([Buffer.alloc(40, 1), Buffer.alloc(40, 2)]));
    // A spool that fsyncs everything keeps nothing in memory.
    expect((await writeSpool(Readable.from([Buffer.from('x')]), dir)).bytes).toBeUndefined();
  });
});
