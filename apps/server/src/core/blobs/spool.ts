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
   * The bytes themselves, when the spool kept them in memory (a file it did not fsync: at most `syncAbove` bytes),
   * so the store and the filters need not read the file back.
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
  /** Fsync the finished file only when it is larger than this (default 0: always). */
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
 * own buffer whatever the size; a failure or `destroy()` removes the file.
 */
export class SpoolWriter extends Writable {
  private handle: fs.FileHandle | undefined;
  private readonly hasher = createHash('sha256');
  private size = 0;
  private done: SpooledFile | undefined;
  /** What was written, while it is small enough to be kept (see SpooledFile.bytes). */
  private chunks: Buffer[] | null = [];

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

  override _construct(callback: (err?: Error | null) => void): void {
    // The folder is made once per process (a mkdir per received message was ~0.3 ms of its CPU).
    const dir = path.dirname(this.path);
    const folder = spoolFolders.has(dir)
      ? Promise.resolve()
      : fs.mkdir(dir, { recursive: true }).then(() => void spoolFolders.add(dir));
    folder
      .then(() => fs.open(this.path, 'w', 0o600))
      .then(
        (handle) => {
          this.handle = handle;
          callback();
        },
        (err: Error) => callback(err),
      );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new SpoolTooLargeError(this.maxBytes));
    this.hasher.update(chunk);
    if (this.chunks && this.size <= this.syncAbove) this.chunks.push(chunk);
    else this.chunks = null;
    this.handle!.write(chunk).then(
      () => callback(),
      (err: Error) => callback(err),
    );
  }

  override _final(callback: (err?: Error | null) => void): void {
    const handle = this.handle!;
    (this.size > this.syncAbove ? handle.sync() : Promise.resolve())
      .then(() => handle.close())
      .then(
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
    const handle = this.handle;
    this.handle = undefined;
    const kept = this.done !== undefined && !err;
    void (handle?.close() ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => (kept ? undefined : fs.rm(this.path, { force: true })))
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
