import { createGunzip } from 'node:zlib';
import { Transform, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import tar from 'tar-stream';
import {
  IMPORT_ARCHIVE_MAX_BYTES,
  IMPORT_ARCHIVE_RATIO_MAX,
  IMPORT_MESSAGE_MAX_BYTES,
  type MailImportReason,
} from '@mailroom/protocol';
import { BoundedBytes, ImportRefused, startsWithHeader, type ImportItem } from './import-item.js';

/**
 * The readers of .eml files: one on its own, or many in a .zip or a .tar.gz with their folders. Archives are guarded
 * before and while unpacking: a zip's entries together may unpack to IMPORT_ARCHIVE_MAX_BYTES at most (read from its
 * central directory, before anything is unpacked), an entry unpacking to more than IMPORT_ARCHIVE_RATIO_MAX times its
 * packed size is a bomb and is not unpacked (yauzl also holds each entry to its declared size while unpacking); a
 * .tar.gz is counted as it unpacks (the gzip's ratio and total). A name leaving its folder (`..`, an absolute path, a
 * backslash, a drive) is refused.
 */

export interface ArchiveLimits {
  messageMaxBytes: number;
  archiveMaxBytes: number;
  ratioMax: number;
}

export const defaultArchiveLimits: ArchiveLimits = {
  messageMaxBytes: IMPORT_MESSAGE_MAX_BYTES,
  archiveMaxBytes: IMPORT_ARCHIVE_MAX_BYTES,
  ratioMax: IMPORT_ARCHIVE_RATIO_MAX,
};

/** Below this an entry's ratio is not looked at (a small, very repetitive message is no bomb). */
const RATIO_FLOOR_BYTES = 2 ** 20;

/** A single .eml file: one message. */
export async function* readEml(
  source: AsyncIterable<Buffer>,
  name: string,
  maxBytes = IMPORT_MESSAGE_MAX_BYTES,
): AsyncGenerator<ImportItem> {
  const bytes = new BoundedBytes(maxBytes);
  for await (const chunk of source) bytes.push(chunk);
  yield messageOrSkip(1, name, bytes, [], null);
}

function messageOrSkip(
  item: number,
  where: string,
  bytes: BoundedBytes,
  folders: string[],
  fileDate: Date | null,
): ImportItem {
  if (bytes.over) return { kind: 'skipped', item, where, reason: 'too_large' };
  const raw = bytes.take();
  if (!raw.length || !startsWithHeader(raw)) return { kind: 'skipped', item, where, reason: 'no_headers' };
  return { kind: 'message', item, where, raw, folders, fileDate };
}

/**
 * An archive entry's folders and whether it is an .eml, or why it is refused: `path_refused` for a name that leaves
 * its folder. Directories answer null (nothing to import).
 */
export function entryPath(
  name: string,
): { folders: string[]; eml: boolean } | { refused: MailImportReason } | null {
  if (name.includes('\\') || name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.includes('\0'))
    return { refused: 'path_refused' };
  const segments = name.split('/');
  if (segments.some((s) => s === '..')) return { refused: 'path_refused' };
  const kept = segments.filter((s) => s !== '' && s !== '.');
  if (name.endsWith('/') || !kept.length) return null;
  const file = kept.pop()!;
  // macOS archivers add resource forks (__MACOSX/…, ._name): no mail in them.
  if (kept[0] === '__MACOSX' || file.startsWith('._')) return { folders: kept, eml: false };
  return { folders: kept, eml: /\.eml$/i.test(file) };
}

/** A zip of .eml files, opened from a file on disk (yauzl reads the central directory first). */
export async function* readZip(
  file: string,
  limits: ArchiveLimits = defaultArchiveLimits,
): AsyncGenerator<ImportItem> {
  let zip: yauzl.ZipFile;
  try {
    zip = await promisify<string, yauzl.Options, yauzl.ZipFile>(yauzl.open)(file, {
      lazyEntries: true,
      decodeStrings: false,
      validateEntrySizes: true,
      autoClose: false,
    });
  } catch {
    throw new ImportRefused('import_file_unreadable');
  }
  try {
    const entries = await centralDirectory(zip);
    const total = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    if (total > limits.archiveMaxBytes) throw new ImportRefused('import_archive_too_large');
    const openStream = promisify<yauzl.Entry, Readable>(zip.openReadStream.bind(zip));
    let item = 0;
    for (const entry of entries) {
      const raw = entry.fileNameRaw ?? (entry.fileName as unknown as Buffer);
      const name = Buffer.isBuffer(raw)
        ? raw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1')
        : String(raw);
      const place = entryPath(name);
      if (place === null) continue;
      item++;
      const skip = (reason: MailImportReason): ImportItem => ({ kind: 'skipped', item, where: name, reason });
      if ('refused' in place) {
        yield skip(place.refused);
        continue;
      }
      if (!place.eml) {
        yield skip('not_a_message');
        continue;
      }
      if (
        entry.uncompressedSize > RATIO_FLOOR_BYTES &&
        entry.uncompressedSize > limits.ratioMax * Math.max(1, entry.compressedSize)
      ) {
        yield skip('archive_bomb');
        continue;
      }
      if (entry.uncompressedSize > limits.messageMaxBytes) {
        yield skip('too_large');
        continue;
      }
      if (entry.isEncrypted() || !entry.canDecodeFileData()) {
        yield skip('unreadable');
        continue;
      }
      const bytes = new BoundedBytes(limits.messageMaxBytes);
      try {
        for await (const chunk of await openStream(entry)) bytes.push(chunk as Buffer);
      } catch {
        yield skip('unreadable');
        continue;
      }
      yield messageOrSkip(item, name, bytes, place.folders, entryDate(entry));
    }
  } finally {
    zip.close();
  }
}

function centralDirectory(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', () => reject(new ImportRefused('import_file_unreadable')));
    zip.readEntry();
  });
}

function entryDate(entry: yauzl.Entry): Date | null {
  try {
    const date = entry.getLastModDate({ timezone: 'UTC' });
    return Number.isNaN(date.getTime()) ? null : date;
  } catch {
    return null;
  }
}

/**
 * A .tar.gz of .eml files, as a stream. The gzip is counted as it unpacks: past IMPORT_ARCHIVE_RATIO_MAX times the
 * packed bytes read so far (beyond a first margin) it is a bomb, past IMPORT_ARCHIVE_MAX_BYTES too large — the
 * import stops there, keeping what it stored.
 */
export async function* readTarGz(
  source: Readable,
  limits: ArchiveLimits = defaultArchiveLimits,
): AsyncGenerator<ImportItem> {
  let packed = 0;
  let unpacked = 0;
  let refused: ImportRefused | null = null;
  source.on('data', (chunk: Buffer) => void (packed += chunk.length));
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      unpacked += chunk.length;
      if (unpacked > limits.archiveMaxBytes) refused = new ImportRefused('import_archive_too_large');
      else if (unpacked > 64 * 2 ** 20 && unpacked > limits.ratioMax * packed)
        refused = new ImportRefused('import_archive_bomb');
      callback(refused, chunk);
    },
  });
  const gunzip = createGunzip();
  const extract = tar.extract();
  const fail = (err: Error) => extract.destroy(refused ?? err);
  source.once('error', fail);
  gunzip.once('error', fail);
  counter.once('error', fail);
  source.pipe(gunzip).pipe(counter).pipe(extract);
  let item = 0;
  try {
    for await (const entry of extract) {
      const { header } = entry;
      const place =
        header.type === 'file' || header.type === 'contiguous-file' ? entryPath(header.name) : null;
      if (place === null) {
        entry.resume();
        continue;
      }
      item++;
      const where = header.name;
      const skip = (reason: MailImportReason): ImportItem => ({ kind: 'skipped', item, where, reason });
      if ('refused' in place || !place.eml || (header.size ?? 0) > limits.messageMaxBytes) {
        entry.resume();
        yield skip('refused' in place ? place.refused : !place.eml ? 'not_a_message' : 'too_large');
        continue;
      }
      const bytes = new BoundedBytes(limits.messageMaxBytes);
      for await (const chunk of entry) bytes.push(chunk as Buffer);
      yield messageOrSkip(item, where, bytes, place.folders, header.mtime ?? null);
    }
  } catch (err) {
    if (refused) throw refused;
    if (err instanceof ImportRefused) throw err;
    throw new ImportRefused('import_file_unreadable');
  } finally {
    source.destroy();
  }
}
