import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Bytes written to a file in a blob store's own temporary area, fsynced, with their SHA-256. */
export interface SpooledFile {
  path: string;
  hash: string;
  size: number;
  /**
   * The bytes themselves, when the spool kept them in memory (at most `syncAbove` bytes): then no file was written
   * at `path` (a store that keeps such blobs elsewhere, durably, has no use for one), so readers use these.
   */
  bytes?: Buffer;
}

/** A spool passed its size limit; what was written so far is gone. */
export class SpoolTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'SpoolTooLargeError';
  }
}

export interface SpoolOptions {
  maxBytes?: number;
  /**
   * Up to this many bytes are kept in memory and no file is written (`SpooledFile.bytes`); a file is written, and
   * fsynced at the end, only once it is larger (default 0: always).
   */
  syncAbove?: number;
}

/** A fresh temporary file name in `dir`. */
export function spoolPath(dir: string): string {
  return path.join(dir, `.tmp-${randomBytes(8).toString('hex')}-${randomBytes(6).toString('hex')}`);
}

/** Spool folders made by this process; nothing removes them while it runs. */
const spoolFolders = new Set<string>();

/**
 * A Writable into a temporary file that hashes what it writes and fsyncs it at the end, so what
 * `file()` describes survives a crash once the stream has finished. Memory stays at the stream's
 * own buffer whatever the size; a failure or `destroy()` removes the file. What stays within
 * `syncAbove` is only kept in memory: the file is opened when the bytes pass it (a received
 * message's open, writes, close and unlink were ~1 ms of its CPU).
 */
export class SpoolWriter extends Writable {
  private handle: fs.FileHandle | undefined;
  private readonly hasher = createHash('sha256');
  private size = 0;
  private done: SpooledFile | undefined;
  /** What was written, while it is small enough to be kept (see SpooledFile.bytes). */
  private chunks: Buffer[] | null = [];
  /** The file is being opened or is open (it is not while the bytes stay within `syncAbove`). */
  private opening: Promise<fs.FileHandle> | undefined;

  /**
   * `syncAbove`: the file is fsynced at the end only when it is larger (a store that keeps smaller ones elsewhere,
   * durably, has no use for this file's own sync).
   */
  constructor(
    readonly path: string,
    private readonly maxBytes = Infinity,
    private readonly syncAbove = 0,
  ) {
    super({ highWaterMark: 256 * 1024 });
  }

  /** Opens the file (making the folder once per process: a mkdir per received message was ~0.3 ms of its CPU). */
  private open(): Promise<fs.FileHandle> {
    const dir = path.dirname(this.path);
    const folder = spoolFolders.has(dir)
      ? Promise.resolve()
      : fs.mkdir(dir, { recursive: true }).then(() => void spoolFolders.add(dir));
    return (this.opening ??= folder
      .then(() => fs.open(this.path, 'w', 0o600))
      .then((handle) => (this.handle = handle)));
  }

  override _construct(callback: (err?: Error | null) => void): void {
    if (this.syncAbove > 0) return callback();
    this.open().then(
      () => callback(),
      (err: Error) => callback(err),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new SpoolTooLargeError(this.maxBytes));
    this.hasher.update(chunk);
    if (this.chunks && this.size <= this.syncAbove) {
      this.chunks.push(chunk);
      if (!this.opening) return callback();
    }
    // Past `syncAbove`: what memory held goes to the file first.
    const held = this.chunks && this.size > this.syncAbove ? [...this.chunks, chunk] : [chunk];
    if (this.size > this.syncAbove) this.chunks = null;
    this.open()
      .then((handle) => handle.writev(held))
      .then(
        () => callback(),
        (err: Error) => callback(err),
      );
  }

  override _final(callback: (err?: Error | null) => void): void {
    const handle = this.handle;
    const closed = handle
      ? (this.size > this.syncAbove ? handle.sync() : Promise.resolve()).then(() => handle.close())
      : Promise.resolve();
    closed.then(
      () => {
        this.handle = undefined;
        this.done = { path: this.path, hash: this.hasher.digest('hex'), size: this.size };
        if (this.chunks) this.done.bytes = Buffer.concat(this.chunks, this.size);
        this.chunks = null;
        callback();
      },
      (err: Error) => callback(err),
    );
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    const kept = this.done !== undefined && !err;
    // A file being opened is closed once open; none was opened when the bytes stayed in memory.
    void (this.opening ?? Promise.resolve())
      .then(() => {
        const handle = this.handle;
        this.handle = undefined;
        return handle?.close();
      })
      .catch(() => undefined)
      .then(() => (kept || !this.opening ? undefined : fs.rm(this.path, { force: true })))
      .then(
        () => callback(err),
        () => callback(err),
      );
  }

  /** What was written, once the stream has finished. */
  file(): SpooledFile {
    if (!this.done) throw new Error('spool not finished');
    return this.done;
  }
}

/** Writes a stream to a new temporary file in `dir`: hashed, fsynced, bounded by `maxBytes`. */
export async function writeSpool(
  source: Readable,
  dir: string,
  options: SpoolOptions = {},
): Promise<SpooledFile> {
  const writer = new SpoolWriter(spoolPath(dir), options.maxBytes, options.syncAbove);
  await pipeline(source, writer);
  return writer.file();
}
