import type { Readable } from 'node:stream';
import ZipStream from 'zip-stream';
import type { StoredAttachment } from '../../core/db/index.js';
import { safeFileName } from '../attachments.js';
import type { ExportRow } from './export.repository.js';

/**
 * Where a folder's messages go in a zip: its dotted path under INBOX as folders (INBOX.Work.2026 → Work/2026, the
 * Inbox itself → Inbox), each segment a safe file name. Two folders whose paths would read the same (case aside, as
 * Windows reads them) get the later one's id added, so every folder keeps its own files.
 */
export function folderPaths(folders: { id: number; name: string }[]): Map<number, string> {
  const paths = new Map<number, string>();
  const taken = new Set<string>();
  for (const folder of [...folders].sort((a, b) => a.id - b.id)) {
    const segments = folder.name === 'INBOX' ? ['Inbox'] : folder.name.replace(/^INBOX\./, '').split('.');
    let path = segments.map((s) => safeFileName(s.replace(/[\\/]/g, '_'), 'folder')).join('/');
    if (taken.has(path.toLowerCase())) path = `${path} (${folder.id})`;
    taken.add(path.toLowerCase());
    paths.set(folder.id, path);
  }
  return paths;
}

/** `<uid> <subject>.eml`: the UID keeps names unique within a folder, the subject makes them readable. */
export function emlName(row: Pick<ExportRow, 'uid' | 'subject'>): string {
  const subject = row.subject.replace(/[\\/]/g, '_').replace(/\s+/g, ' ').slice(0, 80);
  return `${safeFileName(`${row.uid} ${subject}`, String(row.uid))}.eml`;
}

/** Attachment types whose bytes are compressed already: deflating their base64 again wins little for its time. */
const COMPRESSED =
  /^(image\/(jpeg|png|gif|webp|avif|heic)|video\/|audio\/(mpeg|mp4|aac|ogg)|application\/(zip|gzip|x-7z|x-rar|vnd\.rar|pdf|vnd\.openxmlformats|x-bzip2|x-xz|zstd))/i;

/** Stored rather than deflated when most of a message is attachments that are compressed already. */
export function storeUncompressed(size: number, attachments: StoredAttachment[]): boolean {
  const compressed = attachments
    .filter((a) => COMPRESSED.test(a.content_type))
    .reduce((sum, a) => sum + a.size, 0);
  return compressed > size / 2;
}

/**
 * A zip of `.eml` files, written as it is read: one entry at a time, the next message taken only when the zip has
 * consumed the last (so a reader that stops holds everything still). `pathOf` names a message's folder. When the
 * zip is destroyed (the client went away), the messages' iterator is closed, which closes what it had opened.
 */
export function zipOfMessages(
  messages: AsyncIterable<{ row: ExportRow; body: Buffer | Readable }>,
  pathOf: (row: ExportRow) => string,
): Readable {
  // Level 1: mail is text that deflates well at any level; the higher ones cost several times the time.
  const zip = new ZipStream({ zlib: { level: 1 } });
  const closed = new Promise<void>((resolve) => zip.once('close', resolve));
  void (async () => {
    try {
      for await (const { row, body } of messages) {
        const written = new Promise<void>((resolve, reject) =>
          zip.entry(
            body,
            {
              name: `${pathOf(row)}/${emlName(row)}`,
              date: row.received_at,
              store: storeUncompressed(row.size, row.attachments),
            },
            (err) => (err ? reject(err) : resolve()),
          ),
        );
        const done = await Promise.race([written.then(() => true), closed.then(() => false)]);
        if (!done) {
          if (!Buffer.isBuffer(body)) body.destroy();
          return;
        }
      }
      zip.finish();
    } catch (err) {
      zip.destroy(err as Error);
    }
  })();
  return zip as unknown as Readable;
}
