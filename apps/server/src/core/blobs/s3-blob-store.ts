import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobStoreUnavailableError,
  MissingBlobError,
  blobHash,
  keepSpooledOrDiscard,
  spoolBlob,
  type BlobStore,
  type PutStreamOptions,
  type ListedBlob,
} from './blob-store.js';
import { SpoolWriter, spoolPath, type SpooledFile, type SpoolOptions } from './spool.js';

/** Where the bucket is and how to sign in to it (config.blobs.s3). */
export interface S3Settings {
  /** Undefined: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  /** Undefined: the SDK's default credential chain (environment, instance role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

/** A put of a blob the bucket holds uploads it again when it is older than this (see hasFresh). */
const REFRESH_AFTER_MS = 60_000;

/** Blobs above this many bytes go up as a multipart upload, in parts of this size (S3's own minimum is 5 MiB). */
export const S3_PART_BYTES = 8 * 1024 * 1024;
/** Parts of one upload in flight at once: an upload holds at most this many parts in memory. */
const PART_QUEUE = 2;

const hashPattern = /^[0-9a-f]{64}$/;
const PREFIX = 'blobs/';

/** The S3 client for a deployment's settings. */
export function openS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    credentials:
      settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
        : undefined,
    // Checksums only where S3 requires them: many S3-compatible servers (and older MinIO, Ceph) reject or mangle the
    // SDK's default CRC32 trailers. A blob's integrity is checked by its own SHA-256 on the way in instead (put).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // A service that does not answer fails the request (and an SMTP delivery with a 4xx) rather than hanging it.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
  });
}

function isNotFound(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404;
  }
  return false;
}

/**
 * Whether S3 answered the request itself as a refusal of it (4xx: not found, a range past the end, a bad request):
 * anything else — no connection, a timeout, a 5xx — means the store is down for now.
 */
function isClientError(err: unknown): boolean {
  if (!(err instanceof S3ServiceException)) return false;
  const status = err.$metadata.httpStatusCode;
  return status !== undefined && status >= 400 && status < 500;
}

/** A ranged GET past the end of the object (416): nothing to read, as a file gives nothing there. */
function isRangeNotSatisfiable(err: unknown): boolean {
  return (
    err instanceof S3ServiceException && (err.name === 'InvalidRange' || err.$metadata.httpStatusCode === 416)
  );
}

/**
 * Blobs as objects of an S3-compatible bucket, shared by every node of a deployment: the key is the hash
 * (`blobs/ab/cd/<hash>`, the two levels spreading keys over S3's prefixes), so a blob is uploaded once whatever
 * stores it again (a HEAD first). A put resolves once S3 has acknowledged the PUT (or completed the multipart
 * upload), S3's own durability: SMTP answers 250 only after. Reads are GETs, a byte range of a stored message (an
 * attachment inside it) a ranged GET.
 *
 * The spool stays a local folder (`spoolRoot/.spool`): a message or an upload is hashed and fsynced there while it
 * arrives, then keepSpooled streams the file up (multipart above S3_PART_BYTES) and removes it.
 */
export class S3BlobStore implements BlobStore {
  readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    private readonly spoolRoot: string,
    /** `listPageSize`: keys per ListObjectsV2 page (S3's default 1000; a test pages with fewer). */
    private readonly options: {
      partBytes?: number;
      listPageSize?: number;
      client?: S3Client;
      /** How old a blob a put finds must be before the put refreshes its LastModified (default a minute). */
      refreshAfterMs?: number;
    } = {},
  ) {
    this.client = options.client ?? openS3Client(settings);
    // Every request (lib-storage's multipart uploads too) that fails other than by S3's own 4xx rejects with
    // BlobStoreUnavailableError: HTTP answers 503 storage_unavailable, not 500.
    this.client.middlewareStack.add(
      (next) => async (args) => {
        try {
          return await next(args);
        } catch (err) {
          throw isClientError(err) || err instanceof BlobStoreUnavailableError
            ? err
            : new BlobStoreUnavailableError(err);
        }
      },
      { step: 'initialize', name: 'mailroomStoreUnavailable', override: true },
    );
  }

  private get bucket(): string {
    return this.settings.bucket;
  }

  private get partBytes(): number {
    return this.options.partBytes ?? S3_PART_BYTES;
  }

  /** The object key of a blob. Keys are always our own hashes, never names from a message. */
  keyOf(hash: string): string {
    if (!hashPattern.test(hash)) throw new Error('invalid blob hash');
    return `${PREFIX}${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
  }

  async put(data: Buffer): Promise<{ hash: string; size: number }> {
    const hash = blobHash(data);
    if (await this.hasFresh(hash)) return { hash, size: data.length };
    if (data.length > this.partBytes) await this.uploadMultipart(hash, Readable.from([data]));
    else await this.putObject(hash, data);
    return { hash, size: data.length };
  }

  /** One PUT, its SHA-256 sent along so S3 refuses bytes damaged on the way. */
  private async putObject(hash: string, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(hash),
        Body: data,
        ContentLength: data.length,
        ContentType: 'application/octet-stream',
        ChecksumSHA256: Buffer.from(hash, 'hex').toString('base64'),
      }),
    );
  }

  /** A multipart upload from a stream; a failed one is aborted (its parts removed) before this rejects. */
  private async uploadMultipart(hash: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.keyOf(hash),
        Body: body,
        ContentType: 'application/octet-stream',
      },
      partSize: this.partBytes,
      queueSize: PART_QUEUE,
      leavePartsOnError: false,
    });
    await upload.done();
  }

  async putStream(source: Readable, options: PutStreamOptions = {}) {
    return keepSpooledOrDiscard(this, await spoolBlob(source, this.spoolDir, options), options);
  }

  get spoolDir(): string {
    return path.join(this.spoolRoot, '.spool');
  }

  openSpool(options: SpoolOptions = {}): SpoolWriter {
    return new SpoolWriter(spoolPath(this.spoolDir), options.maxBytes, options.syncAbove);
  }

  /**
   * Uploads a spooled file under its hash (unless S3 has it already and `reuse` allows that: then a HEAD is all),
   * then removes the file. With `reuse: false` it is uploaded without asking S3 first. When the upload fails the
   * file stays for the caller to discard (or to try again).
   */
  async keepSpooled(
    file: SpooledFile,
    options: { reuse?: boolean } = {},
  ): Promise<{ hash: string; size: number }> {
    if (!((options.reuse ?? true) && (await this.hasFresh(file.hash)))) {
      if (file.size > this.partBytes) {
        await this.uploadMultipart(file.hash, createReadStream(file.path, { highWaterMark: 1024 * 1024 }));
      } else {
        await this.putObject(file.hash, file.bytes ?? (await fs.readFile(file.path)));
      }
    }
    if (!file.bytes) await fs.rm(file.path, { force: true });
    return { hash: file.hash, size: file.size };
  }

  async discardSpooled(file: Pick<SpooledFile, 'path' | 'bytes'>): Promise<void> {
    if (path.dirname(file.path) !== this.spoolDir) throw new Error('not a spooled file of this store');
    if (!file.bytes) await fs.rm(file.path, { force: true });
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

  /** A GET (ranged when `range` is given); a missing object rejects with MissingBlobError. */
  private async getObject(hash: string, range?: { start: number; end: number }) {
    try {
      return await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(hash),
          ...(range ? { Range: `bytes=${range.start}-${range.end - 1}` } : {}),
        }),
      );
    } catch (err) {
      if (isNotFound(err)) throw new MissingBlobError(hash);
      throw err;
    }
  }

  async get(hash: string): Promise<Buffer> {
    const response = await this.getObject(hash);
    if (!response.Body) throw new MissingBlobError(hash);
    return Buffer.from(await response.Body.transformToByteArray());
  }

  async stream(hash: string, range?: { start: number; end: number }): Promise<Readable> {
    // An empty range reads nothing (`bytes=4-3` is not a range), but a missing blob still rejects.
    if (range && range.end <= range.start) {
      if (!(await this.has(hash))) throw new MissingBlobError(hash);
      return Readable.from([]);
    }
    try {
      const response = await this.getObject(hash, range);
      // In Node the SDK's body is the HTTP response itself, a Readable.
      return response.Body as Readable;
    } catch (err) {
      if (range && isRangeNotSatisfiable(err)) return Readable.from([]);
      throw err;
    }
  }

  /**
   * Whether the bucket holds the blob, written less than a minute ago, so a put need not upload it. One written
   * earlier is uploaded again (the same bytes): that makes its LastModified now — the blob collector keeps what was
   * written within its grace period, so a blob an ingest re-uses is never swept between this put and the message's
   * commit. (A copy onto itself would refresh it without the bytes on AWS, but not on every S3-compatible server.)
   */
  private async hasFresh(hash: string): Promise<boolean> {
    const modified = await this.lastModified(hash);
    return (
      modified !== null &&
      Date.now() - modified.getTime() <= (this.options.refreshAfterMs ?? REFRESH_AFTER_MS)
    );
  }

  /** The object's LastModified, or null when S3 says there is none; S3 unreachable rejects. */
  private async lastModified(hash: string): Promise<Date | null> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) }),
      );
      return head.LastModified ?? new Date(0);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /**
   * The collector's removal: deleted only when its LastModified is before `since` (a put refreshes it). S3 has no
   * conditional delete of general buckets that s3rver and older services offer, so a put between the HEAD and the
   * DELETE remains a window of one request (the reference check before it is what normally protects a blob).
   */
  async removeIfNotWrittenSince(hash: string, since: Date): Promise<boolean> {
    const modified = await this.lastModified(hash);
    // LastModified has whole seconds: anything within the second before `since` may have been written after it.
    if (!modified || modified.getTime() + 1000 > since.getTime()) return false;
    await this.remove(hash);
    return true;
  }

  /** A HEAD: false only when S3 says there is no such object; S3 unreachable rejects. */
  async has(hash: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async remove(hash: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(hash) }));
  }

  async *list(): AsyncIterable<ListedBlob> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: PREFIX,
          ContinuationToken: token,
          MaxKeys: this.options.listPageSize,
        }),
      );
      for (const object of page.Contents ?? []) {
        const hash = object.Key?.slice(object.Key.lastIndexOf('/') + 1) ?? '';
        if (!hashPattern.test(hash) || object.Key !== this.keyOf(hash)) continue;
        yield { hash, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }
}
