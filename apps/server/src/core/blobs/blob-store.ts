import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fsyncPath } from '../fsync.js';
import {
  SpoolTooLargeError,
  SpoolWriter,
  spoolPath,
  writeSpool,
  type SpooledFile,
  type SpoolOptions,
} from './spool.js';

/** Content-addressed storage for raw messages and attachments: the key is the SHA-256 of the bytes. */
export interface BlobStore {
  /** Stores the bytes durably (on disk and in its folder's entry) before resolving. */
  put(data: Buffer): Promise<{ hash: string; size: number }>;
  /**
   * Stores a stream durably, hashing it as it is written; `maxBytes` stops it early with a
   * BlobTooLargeError (nothing is kept). Memory stays flat whatever the size.
   */
  putStream(source: Readable, options?: { maxBytes?: number }): Promise<{ hash: string; size: number }>;
  /**
   * The store's own temporary area, on the same file system as the blobs: a message or an
   * attachment is spooled there while it arrives (a SpoolWriter, writeSpool) and kept without a
   * copy, or discarded.
   */
  readonly spoolDir: string;
  /** A Writable into a new file of the spool area, at most `maxBytes`; `file()` once finished. */
  openSpool(options?: SpoolOptions): SpoolWriter;
  /** Moves a finished spooled file into the store under its hash, durably (rename, folder fsync). */
  keepSpooled(file: SpooledFile): Promise<{ hash: string; size: number }>;
  /** Removes a spooled file that is not to be kept. */
  discardSpooled(file: Pick<SpooledFile, 'path'>): Promise<void>;
  /** Removes spooled files older than `olderThanMs` (left by a process that stopped mid-message). */
  sweepSpool(olderThanMs: number): Promise<number>;
  get(hash: string): Promise<Buffer>;
  /**
   * The bytes as a stream, or those of `range` (`end` exclusive; an attachment inside a stored
   * message); rejects (a missing blob, say) before any byte is read, so a caller can still answer
   * with an error. Any store can implement it: a file, an S3 object (a ranged GET).
   */
  stream(hash: string, range?: { start: number; end: number }): Promise<Readable>;
  has(hash: string): Promise<boolean>;
  /** Deletes a blob nothing else can share (an expired encrypted message's random ciphertext). */
  remove(hash: string): Promise<void>;
}

const hashPattern = /^[0-9a-f]{64}$/;

/** A streamed blob passed its size limit; what was written so far is gone. */
export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`blob larger than ${maxBytes} bytes`);
    this.name = 'BlobTooLargeError';
  }
}

/** A stream spooled into `dir` for a store's putStream (BlobTooLargeError past `maxBytes`). */
export async function spoolBlob(source: Readable, dir: string, options: SpoolOptions): Promise<SpooledFile> {
  try {
    return await writeSpool(source, dir, options);
  } catch (err) {
    if (err instanceof SpoolTooLargeError) throw new BlobTooLargeError(err.maxBytes);
    throw err;
  }
}

export function blobHash(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Files under `root/ab/<hash>`. A blob is written to a temporary file, fsynced, renamed into
 * place and its folder fsynced, so after put() resolves a crash cannot lose or half-write it.
 * Keys are always our own hashes, never names from a message.
 *
 * One level of 256 folders: a second level (`root/ab/cd/<hash>`, before 2026-11-24) made up to
 * 65,536 folders of one or two files each, and each folder takes a 4 KiB block of its own — 256 MiB
 * of folders for a 100k mailbox of 447 MiB. Blobs written that way are still found there.
 */
export class FsBlobStore implements BlobStore {
  /** Folders known to exist (nothing removes them): a put skips its mkdir. */
  private readonly folders = new Set<string>();

  constructor(private readonly root: string) {}

  private async makeFolder(dir: string): Promise<void> {
    if (this.folders.has(dir)) return;
    await fs.mkdir(dir, { recursive: true });
    this.folders.add(dir);
  }

  private pathOf(hash: string): string {
    if (!hashPattern.test(hash)) throw new Error('invalid blob hash');
    return path.join(this.root, hash.slice(0, 2), hash);
  }

  /** Where a blob written before the one-level layout lies. */
  private legacyPathOf(hash: string): string {
    return path.join(this.root, hash.slice(0, 2), hash.slice(2, 4), hash);
  }

  /** Runs `read` on the blob's path, or on its old path when it is not in the new place. */
  private async atPath<T>(hash: string, read: (file: string) => Promise<T>): Promise<T> {
    try {
      return await read(this.pathOf(hash));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      return read(this.legacyPathOf(hash));
    }
  }

  async put(data: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(data);
    const target = this.pathOf(hash);
    if (await this.has(hash)) return { hash, size: data.length };
    const dir = path.dirname(target);
    await this.makeFolder(dir);
    const temp = path.join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
    const file = await fs.open(temp, 'w', 0o600);
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await fs.rename(temp, target);
    await fsyncPath(dir);
    return { hash, size: data.length };
  }

  async putStream(source: Readable, options: { maxBytes?: number } = {}) {
    return this.keepSpooled(await spoolBlob(source, this.spoolDir, options));
  }

  get spoolDir(): string {
    return path.join(this.root, '.spool');
  }

  openSpool(options: SpoolOptions = {}): SpoolWriter {
    return new SpoolWriter(spoolPath(this.spoolDir), options.maxBytes, options.syncAbove);
  }

  async keepSpooled(file: SpooledFile): Promise<{ hash: string; size: number }> {
    const target = this.pathOf(file.hash);
    if (await this.has(file.hash)) {
      await fs.rm(file.path, { force: true });
      return { hash: file.hash, size: file.size };
    }
    const dir = path.dirname(target);
    await this.makeFolder(dir);
    await fs.rename(file.path, target);
    await fsyncPath(dir);
    return { hash: file.hash, size: file.size };
  }

  async discardSpooled(file: Pick<SpooledFile, 'path'>): Promise<void> {
    if (path.dirname(file.path) !== this.spoolDir) throw new Error('not a spooled file of this store');
    await fs.rm(file.path, { force: true });
  }

  async sweepSpool(olderThanMs: number): Promise<number> {
    const names = await fs.readdir(this.spoolDir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const file = path.join(this.spoolDir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  get(hash: string): Promise<Buffer> {
    return this.atPath(hash, (file) => fs.readFile(file));
  }

  async stream(hash: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = await this.atPath(hash, (name) => fs.open(name, 'r'));
    // The stream closes the file when it ends or is destroyed. An empty range reads nothing
    // (createReadStream's `end` is inclusive, so start..start-1 is not expressible).
    if (range && range.end <= range.start) {
      await file.close();
      return Readable.from([]);
    }
    return file.createReadStream(range ? { start: range.start, end: range.end - 1 } : {});
  }

  async has(hash: string): Promise<boolean> {
    try {
      await this.atPath(hash, (file) => fs.access(file));
      return true;
    } catch {
      return false;
    }
  }

  async remove(hash: string): Promise<void> {
    await fs.rm(this.pathOf(hash), { force: true });
    await fs.rm(this.legacyPathOf(hash), { force: true });
  }
}
