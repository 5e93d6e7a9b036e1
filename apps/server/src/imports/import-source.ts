import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { MailImportFormat } from '@mailroom/protocol';
import { MissingBlobError, type BlobStore } from '../core/blobs/index.js';
import { DomainError } from '../core/errors.js';
import { readTarGz, readEml, readZip } from './archive-readers.js';
import { ImportRefused, type ImportItem } from './import-item.js';
import { readMbox } from './mbox-reader.js';

/**
 * Where an import's file is: a file on the server's disk (the CLI), a blob (a compose upload), or the parts of a
 * chunked upload (blobs whose bytes one after the other are the file).
 */
export type ImportFile = { path: string } | { blobHash: string } | { parts: string[] };

/**
 * The format of a file from its first bytes: a zip's local header, gzip's magic, an mbox's `From ` line; anything
 * else that starts like a message is an .eml. import_file_unreadable otherwise.
 */
export function detectFormat(head: Buffer): MailImportFormat {
  if (head.length >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  const text = head.toString('latin1');
  if (/^From [^\r\n]/.test(text)) return 'mbox';
  if (/^[\x21-\x39\x3b-\x7e]+[ \t]*:/.test(text)) return 'eml';
  throw new ImportRefused('import_file_unreadable');
}

/** The format of an import file, read from its first bytes; import_file_unreadable when it is none we read. */
export async function importFormat(blobs: BlobStore | null, file: ImportFile): Promise<MailImportFormat> {
  try {
    return detectFormat(await readHeadOf(blobs, file));
  } catch (err) {
    if (err instanceof ImportRefused) throw new DomainError('import_file_unreadable');
    throw err;
  }
}

async function openStream(blobs: BlobStore | null, file: ImportFile): Promise<Readable> {
  try {
    if ('path' in file) {
      await fs.access(file.path);
      return createReadStream(file.path, { highWaterMark: 256 * 1024 });
    }
    if ('parts' in file) return Readable.from(concatenated(blobs!, file.parts), { objectMode: false });
    return await blobs!.stream(file.blobHash);
  } catch {
    throw new ImportRefused('import_file_unreadable');
  }
}

/** The bytes of `hashes`' blobs one after the other, one blob open at a time. */
async function* concatenated(blobs: BlobStore, hashes: string[]): AsyncGenerator<Buffer> {
  for (const hash of hashes) {
    try {
      for await (const chunk of await blobs.stream(hash)) yield chunk as Buffer;
    } catch (err) {
      if (err instanceof MissingBlobError) throw new ImportRefused('import_file_unreadable');
      throw err;
    }
  }
}

async function readHeadOf(blobs: BlobStore | null, file: ImportFile): Promise<Buffer> {
  const stream = await openStream(blobs, file);
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      parts.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= 4096) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts).subarray(0, 4096);
}

/**
 * The items of an import file in order, and its format. A zip needs random access: one in the blob store is first
 * copied to the store's spool (removed when the reading ends).
 */
export async function openImport(
  blobs: BlobStore,
  file: ImportFile,
  name: string,
): Promise<{ format: MailImportFormat; items: AsyncGenerator<ImportItem> }> {
  const format = detectFormat(await readHeadOf(blobs, file));
  const items = async function* (): AsyncGenerator<ImportItem> {
    if (format === 'zip') {
      if ('path' in file) return yield* readZip(file.path);
      const spool = blobs.openSpool();
      await pipeline(await openStream(blobs, file), spool);
      const copy = spool.file();
      try {
        return yield* readZip(copy.path);
      } finally {
        await blobs.discardSpooled(copy).catch(() => undefined);
      }
    }
    const stream = await openStream(blobs, file);
    try {
      if (format === 'tar.gz') return yield* readTarGz(stream);
      if (format === 'mbox') return yield* readMbox(stream);
      return yield* readEml(stream, path.basename(name));
    } finally {
      stream.destroy();
    }
  };
  return { format, items: items() };
}

/**
 * How many items the file holds, for the progress bar: counted cheaply (an mbox's `From ` lines after an empty
 * line, without reading the messages), or by reading the archive through.
 */
export async function countItems(blobs: BlobStore, file: ImportFile, name: string): Promise<number> {
  const { format, items } = await openImport(blobs, file, name);
  if (format !== 'mbox') {
    let n = 0;
    try {
      for await (const item of items) n = item.item;
    } catch (err) {
      // The import itself meets what stops it, and says so.
      if (!(err instanceof ImportRefused)) throw err;
    }
    return n;
  }
  await items.return(undefined);
  const stream = await openStream(blobs, file);
  let count = 0;
  let tail = Buffer.alloc(0);
  let first = true;
  for await (const chunk of stream) {
    const data = tail.length ? Buffer.concat([tail, chunk as Buffer]) : (chunk as Buffer);
    if (first && data.subarray(0, 5).toString('latin1') === 'From ') count++;
    first = false;
    for (const separator of ['\n\nFrom ', '\n\r\nFrom '])
      for (let at = data.indexOf(separator); at >= 0; at = data.indexOf(separator, at + 1)) count++;
    tail = Buffer.from(data.subarray(Math.max(0, data.length - 6)));
  }
  return count;
}
