import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fsyncPath } from '../fsync.js';
import type { BlobRow } from './blobs.repository.js';
import {
  SpoolTooLargeError,
  SpoolWriter,
  spoolPath,
  writeSpool,
  type SpooledFile,
  type SpoolOptions,
} from './spool.js';

/** Stores each of `data` with the store's `putMany` when it has one, else one `put` at a time in parallel. */
export function putEach(store: BlobStore, data: Buffer[]): Promise<{ hash: string; size: number }[]> {
  return store.putMany ? store.putMany(data) : Promise.all(data.map((d) => store.put(d)));
}

/** Content-addressed storage for raw messages and attachments: the key is the SHA-256 of the bytes. */
export interface BlobStore {
  /** Stores the bytes durably (on disk and in its folder's entry) before resolving. */
  put(data: Buffer): Promise<{ hash: string; size: number }>;
  /**
   * Stores many at once, durably, as `put` does each (an import's batch): a store that can write them in one go
   * (the database's small blobs, one statement) has it; the others are written one by one by `putEach`.
   */
  putMany?(data: Buffer[]): Promise<{ hash: string; size: number }[]>;
  /**
   * Stores a stream durably, hashing it as it is written; `maxBytes` stops it early with a
   * BlobTooLargeError (nothing is kept). Memory stays flat whatever the size.
   */
  putStream(source: Readable, options?: PutStreamOptions): Promise<{ hash: string; size: number }>;
  /**
   * The store's own temporary area, on the same file system as the blobs: a message or an
   * attachment is spooled there while it arrives (a SpoolWriter, writeSpool) and kept without a
   * copy, or discarded.
   */
  readonly spoolDir: string;
  /** A Writable into a new file of the spool area, at most `maxBytes`; `file()` once finished. */
  openSpool(options?: SpoolOptions): SpoolWriter;
  /**
   * Moves a finished spooled file into the store under its hash, durably (rename, folder fsync). With `reuse`
   * (the default) a blob already there is kept and the file dropped; with `reuse: false` the bytes are written
   * whatever the store holds (the same bytes under the same key), so how long this takes says nothing about what
   * others stored (see PutStreamOptions).
   */
  keepSpooled(file: SpooledFile, options?: { reuse?: boolean }): Promise<{ hash: string; size: number }>;
  /** Removes a spooled file that is not to be kept (none was written for one whose `bytes` the spool kept). */
  discardSpooled(file: Pick<SpooledFile, 'path' | 'bytes'>): Promise<void>;
  /** Removes spooled files older than `olderThanMs` (left by a process that stopped mid-message). */
  sweepSpool(olderThanMs: number): Promise<number>;
  get(hash: string): Promise<Buffer>;
  /**
   * The bytes of those of `hashes` that the store can hand over together cheaply (the database's small blobs, one
   * query), by hash; the others are left out, to be streamed one by one. For readers of many messages (an export).
   */
  getMany?(hashes: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * The bytes as a stream, or those of `range` (`end` exclusive; an attachment inside a stored
   * message); rejects (a missing blob, say) before any byte is read, so a caller can still answer
   * with an error. Any store can implement it: a file, an S3 object (a ranged GET).
   */
  stream(hash: string, range?: { start: number; end: number }): Promise<Readable>;
  has(hash: string): Promise<boolean>;
  /** Deletes a blob nothing else can share (an expired encrypted message's random ciphertext). */
  remove(hash: string): Promise<void>;
  /** Every stored blob of this store (not the database's small ones), oldest first not required: for the collector's sweep. */
  list(): AsyncIterable<{ hash: string; size: number; modifiedAt: Date }>;
  /**
   * The collector's removal: deletes the blob only if it was not written (or put again: a put that finds the blob
   * there refreshes its time) at or after `since`, atomically with such a put, so a blob an ingest re-used between
   * the collector's reference check and this call stays. True when it was removed. A store without it is swept
   * with `remove` after the check (a window of one reference query).
   */
  removeIfNotWrittenSince?(hash: string, since: Date): Promise<boolean>;
  /**
   * The row of a blob this store keeps in the database (a small one), not written: the caller writes it in the very
   * statement that stores what names it (insertBlobSql), so both commit at once — one WAL sync instead of the
   * blob's own and then its message's. Undefined when the store keeps these bytes elsewhere (put or keepSpooled
   * them); a spooled file's bytes must be in memory (`bytes`), and the caller discards the file.
   */
  rowFor?(data: Buffer | SpooledFile): Promise<PendingBlobRow | undefined>;
}

/** A blob to be written by the statement that stores what names it (BlobStore.rowFor). */
export interface PendingBlobRow {
  hash: string;
  size: number;
  row: BlobRow;
}

/**
 * `maxBytes` stops the stream early with a BlobTooLargeError. `reuse` is asked once the bytes are hashed whether a
 * blob the store already holds under that hash may stand for them (see keepSpooled): a member's upload asks whether
 * their own account already references the hash, so that uploading bytes another account stored costs a full
 * upload, as new bytes do — no timing tells one member what another keeps (issue 28). Without it, reused.
 */
export interface PutStreamOptions {
  maxBytes?: number;
  reuse?: (hash: string) => Promise<boolean>;
}

/** A spooled file kept in `store` (reuse as `options` decide), or removed when that fails. */
export async function keepSpooledOrDiscard(
  store: BlobStore,
  file: SpooledFile,
  options: PutStreamOptions,
): Promise<{ hash: string; size: number }> {
  try {
    const reuse = options.reuse ? await options.reuse(file.hash) : true;
    return await store.keepSpooled(file, { reuse });
  } catch (err) {
    await store.discardSpooled(file).catch(() => undefined);
    throw err;
  }
}

/** A blob as `list()` gives it. */
export interface ListedBlob {
  hash: string;
  size: number;
  modifiedAt: Date;
}
/**
 * A blob that is not in the store, from a store that is not a folder (S3's 404): `code` is ENOENT, as a missing
 * file's error is, so callers tell "not there" from "store unreachable" alike for every store.
 */
export class MissingBlobError extends Error {
  readonly code = 'ENOENT';
  constructor(readonly hash: string) {
    super(`blob ${hash} not found`);
    this.name = 'MissingBlobError';
  }
}

/**
 * The store could not be reached or failed on its side (S3 refusing connections, timing out, answering 5xx): nothing
 * is wrong with the request, it may be tried again. `code` is the catalogue's `storage_unavailable`, so an HTTP
 * request that meets it answers 503 with that code (toApiError), and SMTP answers 451 as for any store failure.
 */
export class BlobStoreUnavailableError extends Error {
  readonly code = 'storage_unavailable';
  constructor(cause: unknown) {
    super(`blob store unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BlobStoreUnavailableError';
  }
}

const hashPattern = /^[0-9a-f]{64}$/;
const folderPattern = /^[0-9a-f]{2}$/;

/** The two-hex-digit folders of `dir` (none when it does not exist). */
async function subfolders(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory() && folderPattern.test(e.name)).map((e) => e.name);
}

/** Removes the files of `dir` that `wanted` names and that were last written more than `olderThanMs` ago. */
async function sweepOld(
  dir: string,
  wanted: (name: string) => boolean,
  olderThanMs: number,
): Promise<number> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!wanted(name)) continue;
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat?.isFile() && Date.now() - stat.mtimeMs > olderThanMs) {
      await fs.rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

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

  /**
   * A put that finds the blob already there sets its time to now (the collector keeps what was written within its
   * grace period, so a blob a new message re-uses is not swept before the message commits). False when it is not
   * there (or the collector took it away just now: then it is written again).
   */
  private async touch(hash: string): Promise<boolean> {
    const now = new Date();
    try {
      await this.atPath(hash, (file) => fs.utimes(file, now, now));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async put(data: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(data);
    if (await this.touch(hash)) return { hash, size: data.length };
    return this.write(hash, data);
  }

  /** Writes the bytes under `hash` whether or not they are there: a temporary file, fsynced, renamed into place. */
  private async write(hash: string, data: Buffer): Promise<{ hash: string; size: number }> {
    const target = this.pathOf(hash);
    const dir = path.dirname(target);
    await this.makeFolder(dir);
    // Written in the spool area (same file system), so a crash's half-written file is swept with the spool's.
    await this.makeFolder(this.spoolDir);
    const temp = path.join(this.spoolDir, `.tmp-${randomBytes(8).toString('hex')}`);
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

  async putStream(source: Readable, options: PutStreamOptions = {}) {
    return keepSpooledOrDiscard(this, await spoolBlob(source, this.spoolDir, options), options);
  }

  get spoolDir(): string {
    return path.join(this.root, '.spool');
  }

  openSpool(options: SpoolOptions = {}): SpoolWriter {
    return new SpoolWriter(spoolPath(this.spoolDir), options.maxBytes, options.syncAbove);
  }

  async keepSpooled(
    file: SpooledFile,
    options: { reuse?: boolean } = {},
  ): Promise<{ hash: string; size: number }> {
    // Bytes the spool kept in memory have no file to move in: they are written as put() writes them.
    if (file.bytes) return (options.reuse ?? true) ? this.put(file.bytes) : this.write(file.hash, file.bytes);
    const target = this.pathOf(file.hash);
    // Not reused: the file replaces the blob (the same bytes; a rename is atomic), as a new one is written.
    if ((options.reuse ?? true) && (await this.touch(file.hash))) {
      await fs.rm(file.path, { force: true });
      return { hash: file.hash, size: file.size };
    }
    const dir = path.dirname(target);
    await this.makeFolder(dir);
    await fs.rename(file.path, target);
    await fsyncPath(dir);
    return { hash: file.hash, size: file.size };
  }

  async discardSpooled(file: Pick<SpooledFile, 'path' | 'bytes'>): Promise<void> {
    if (path.dirname(file.path) !== this.spoolDir) throw new Error('not a spooled file of this store');
    if (!file.bytes) await fs.rm(file.path, { force: true });
  }

  /**
   * The spool area's old files, and the temporary files a put left in a blob folder when it stopped mid-write
   * (puts wrote them there before they went through the spool area).
   */
  async sweepSpool(olderThanMs: number): Promise<number> {
    let removed = await sweepOld(this.spoolDir, () => true, olderThanMs);
    for (const dir of await this.blobFolders()) {
      removed += await sweepOld(dir, (name) => name.startsWith('.tmp-'), olderThanMs);
    }
    return removed;
  }

  /** The folders blobs lie in: `ab/` and the older layout's `ab/cd/`. */
  private async blobFolders(): Promise<string[]> {
    const folders: string[] = [];
    for (const top of await subfolders(this.root)) {
      const dir = path.join(this.root, top);
      folders.push(dir, ...(await subfolders(dir)).map((sub) => path.join(dir, sub)));
    }
    return folders;
  }

  async *list(): AsyncIterable<ListedBlob> {
    for (const dir of await this.blobFolders()) {
      const entries = await fs.opendir(dir).catch(() => undefined);
      if (!entries) continue;
      for await (const entry of entries) {
        if (!entry.isFile() || !hashPattern.test(entry.name)) continue;
        const stat = await fs.stat(path.join(dir, entry.name)).catch(() => undefined);
        if (stat) yield { hash: entry.name, size: stat.size, modifiedAt: stat.mtime };
      }
    }
  }

  /**
   * Moves the blob aside, then looks at its time: a put that touched it before the move shows there, and the blob
   * goes back; a put after the move finds nothing and writes it again. Either way the put's blob stays.
   */
  async removeIfNotWrittenSince(hash: string, since: Date): Promise<boolean> {
    let removed = false;
    for (const file of [this.pathOf(hash), this.legacyPathOf(hash)]) {
      await this.makeFolder(this.spoolDir);
      const aside = path.join(this.spoolDir, `.gc-${hash}-${randomBytes(4).toString('hex')}`);
      try {
        await fs.rename(file, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const stat = await fs.stat(aside);
      if (stat.mtimeMs >= since.getTime()) {
        // Back where it was, unless a put has written it there again meanwhile (the same bytes).
        await fs.link(aside, file).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST') throw err;
        });
        await fs.rm(aside, { force: true });
        return false;
      }
      await fs.rm(aside, { force: true });
      await fsyncPath(path.dirname(file));
      removed = true;
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
