import fs from 'node:fs/promises';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Db } from '../db/index.js';
import {
  blobHash,
  keepSpooledOrDiscard,
  spoolBlob,
  FsBlobStore,
  type BlobStore,
  type ListedBlob,
  type PendingBlobRow,
  type PutStreamOptions,
} from './blob-store.js';
import type { S3Settings } from './s3-blob-store.js';
import {
  blobRowExists,
  deleteBlobRow,
  deleteBlobRowWrittenBefore,
  findBlob,
  findBlobs,
  insertBlob,
  insertBlobs,
  listBlobRows,
  type BlobRow,
} from './blobs.repository.js';
import type { SpooledFile, SpoolWriter } from './spool.js';

/**
 * Blobs of at most this many bytes are kept in the database. Half of a realistic mailbox's messages are under
 * 2 KB and nine in ten under 8 KB; as files each took at least a 4 KiB block (674 MiB of files for 459 MiB of
 * blobs at 100k messages). In the database they are packed into 8 KiB pages, compressed. Larger blobs (messages
 * with big attachments, uploads) stay files, where a block's rounding is small beside them and a download
 * streams from disk.
 */
export const SMALL_BLOB_MAX_BYTES = 128 * 1024;

/** Below this, compressing on the event loop costs less than a trip to the thread pool (~0.1 ms at 32 KB). */
const SYNC_ZLIB_MAX_BYTES = 32 * 1024;
/** Kept compressed only when that saves at least this share (base64 of a compressed PDF saves ~25 %). */
const WORTH_COMPRESSING = 0.9;

const deflateRaw = promisify(zlib.deflateRaw);
const inflateRaw = promisify(zlib.inflateRaw);

const CODEC_STORED = 0;
const CODEC_DEFLATE = 1;

async function encode(data: Buffer): Promise<BlobRow> {
  const packed = data.length <= SYNC_ZLIB_MAX_BYTES ? zlib.deflateRawSync(data) : await deflateRaw(data);
  return packed.length < data.length * WORTH_COMPRESSING
    ? { size: data.length, codec: CODEC_DEFLATE, data: packed }
    : { size: data.length, codec: CODEC_STORED, data };
}

async function decode(row: BlobRow): Promise<Buffer> {
  const data = Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength);
  if (row.codec === CODEC_STORED) return data;
  if (row.codec !== CODEC_DEFLATE) throw new Error(`unknown blob codec ${row.codec}`);
  return row.size <= SYNC_ZLIB_MAX_BYTES ? zlib.inflateRawSync(data) : inflateRaw(data);
}

/**
 * The blob store of a deployment: blobs up to SMALL_BLOB_MAX_BYTES in the database's `blobs` table (compressed
 * when that helps), larger ones in `files`. A blob is durable when its row is committed, as the message rows that
 * name it are (the database's own durability: PostgreSQL's, or embedded PGlite's with fsync on). Blobs written
 * as files before small ones moved into the database are still read from there. Every process on one database
 * sees the same small blobs; the large ones are shared as `files` is (one host's folder, or S3).
 */
export class DatabaseBlobStore implements BlobStore {
  constructor(
    private readonly db: Db,
    /** Where blobs larger than `smallMax` go: a folder or an S3 bucket. */
    readonly files: BlobStore,
    private readonly smallMax = SMALL_BLOB_MAX_BYTES,
  ) {}

  async put(data: Buffer): Promise<{ hash: string; size: number }> {
    if (data.length > this.smallMax) return this.files.put(data);
    const hash = blobHash(data);
    await insertBlob(this.db, hash, await encode(data));
    return { hash, size: data.length };
  }

  async rowFor(data: Buffer | SpooledFile): Promise<PendingBlobRow | undefined> {
    if (Buffer.isBuffer(data))
      return data.length > this.smallMax
        ? undefined
        : { hash: blobHash(data), size: data.length, row: await encode(data) };
    if (data.size > this.smallMax || !data.bytes) return undefined;
    return { hash: data.hash, size: data.size, row: await encode(data.bytes) };
  }

  /** The small ones in one statement (one commit), the large ones as files. */
  async putMany(data: Buffer[]): Promise<{ hash: string; size: number }[]> {
    const refs = data.map((d) => ({ hash: blobHash(d), size: d.length }));
    const small = new Map<string, Buffer>();
    const large: Buffer[] = [];
    for (const [i, d] of data.entries()) {
      if (d.length > this.smallMax) large.push(d);
      else small.set(refs[i]!.hash, d);
    }
    const rows = await Promise.all([...small].map(async ([hash, d]) => ({ hash, ...(await encode(d)) })));
    await Promise.all([insertBlobs(this.db, rows), ...large.map((d) => this.files.put(d))]);
    return refs;
  }

  async putStream(source: Readable, options: PutStreamOptions = {}) {
    const file = await spoolBlob(source, this.spoolDir, {
      maxBytes: options.maxBytes,
      syncAbove: this.smallMax,
    });
    return keepSpooledOrDiscard(this, file, options);
  }

  get spoolDir(): string {
    return this.files.spoolDir;
  }

  /** A small message's spool file is not fsynced: its bytes become durable as a row (keepSpooled). */
  openSpool(options: { maxBytes?: number } = {}): SpoolWriter {
    return this.files.openSpool({ ...options, syncAbove: this.smallMax });
  }

  /** A small blob's row is written whether or not it was there (`reuse` makes no difference to its cost). */
  async keepSpooled(
    file: SpooledFile,
    options: { reuse?: boolean } = {},
  ): Promise<{ hash: string; size: number }> {
    if (file.size > this.smallMax) return this.files.keepSpooled(file, options);
    const data = file.bytes ?? (await fs.readFile(file.path));
    await insertBlob(this.db, file.hash, await encode(data));
    await this.files.discardSpooled(file);
    return { hash: file.hash, size: file.size };
  }

  discardSpooled(file: Pick<SpooledFile, 'path' | 'bytes'>): Promise<void> {
    return this.files.discardSpooled(file);
  }

  sweepSpool(olderThanMs: number): Promise<number> {
    return this.files.sweepSpool(olderThanMs);
  }

  async get(hash: string): Promise<Buffer> {
    const row = await findBlob(this.db, hash);
    return row ? decode(row) : this.files.get(hash);
  }

  /** The small blobs of `hashes` in one query; large ones (files, S3) are left for stream(). */
  async getMany(hashes: readonly string[]): Promise<Map<string, Buffer>> {
    const rows = await findBlobs(this.db, hashes);
    const found = new Map<string, Buffer>();
    for (const row of rows) found.set(row.hash, await decode(row));
    return found;
  }

  async stream(hash: string, range?: { start: number; end: number }): Promise<Readable> {
    const row = await findBlob(this.db, hash);
    if (!row) return this.files.stream(hash, range);
    const data = await decode(row);
    const bytes = range ? data.subarray(range.start, Math.max(range.start, range.end)) : data;
    return Readable.from([bytes], { objectMode: false });
  }

  async has(hash: string): Promise<boolean> {
    return (await blobRowExists(this.db, hash)) || this.files.has(hash);
  }

  async remove(hash: string): Promise<void> {
    await deleteBlobRow(this.db, hash);
    await this.files.remove(hash);
  }

  /** The table's rows (read a page at a time by hash), then the inner store's blobs. */
  async *list(): AsyncIterable<ListedBlob> {
    for (let after = ''; ;) {
      const rows = await listBlobRows(this.db, after, LIST_PAGE);
      for (const row of rows) yield { hash: row.hash, size: row.size, modifiedAt: row.written_at };
      if (rows.length < LIST_PAGE) break;
      after = rows[rows.length - 1]!.hash;
    }
    yield* this.files.list();
  }

  async removeIfNotWrittenSince(hash: string, since: Date): Promise<boolean> {
    const row = await deleteBlobRowWrittenBefore(this.db, hash, since);
    const file = this.files.removeIfNotWrittenSince
      ? await this.files.removeIfNotWrittenSince(hash, since)
      : (await this.files.has(hash)) && (await this.files.remove(hash), true);
    return row || file;
  }
}

/** Rows of `blobs` read at a time by list(). */
const LIST_PAGE = 1000;

/**
 * The store main.ts opens (config.blobs): small blobs in the database, the rest as files under `root` (BLOB_STORE=fs)
 * or in an S3 bucket (BLOB_STORE=s3, `s3` its settings), `root` then only the local spool's place.
 */
export async function openBlobStore(
  db: Db,
  root: string,
  s3: S3Settings | null = null,
): Promise<DatabaseBlobStore> {
  // The S3 client (AWS's SDK: ~5 MB of heap) is loaded only by a deployment that stores blobs in S3.
  const files = s3 ? new (await import('./s3-blob-store.js')).S3BlobStore(s3, root) : new FsBlobStore(root);
  return new DatabaseBlobStore(db, files);
}
