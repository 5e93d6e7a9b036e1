import { createHash } from 'node:crypto';
import { nestedFolderPath } from '../mailbox/index.js';

/** The pure parts of the import: where a remote folder goes, a message's fingerprint, its flags, the back-off. */

/** The job queue's kind for a collector's passes (key: the collector's id); the job follows its next_sync_at. */
export const COLLECTOR_JOB = 'collector';

/**
 * The local folder a remote folder fills: the collector's folder, then one segment per level of the remote path
 * (split at the server's delimiter, each made a segment by collectorFolderSegment). Levels deeper than our folders
 * may go are joined into the last one with a slash (which the segment shows as ∕).
 */
export function localFolderPath(
  collectorFolder: string,
  remotePath: string,
  delimiter: string | null,
): string {
  return nestedFolderPath(collectorFolder, delimiter ? remotePath.split(delimiter) : [remotePath]);
}

/**
 * What finds a copied message again when the server changed UIDVALIDITY (the folder was recreated): its Message-ID,
 * the date of its Date header and its size.
 */
export function messageFingerprint(
  messageId: string | null | undefined,
  date: Date | null | undefined,
  size: number,
) {
  const when = date && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
  return createHash('sha256')
    .update(`${(messageId ?? '').trim()}\n${when}\n${size}`)
    .digest('base64url')
    .slice(0, 32);
}

export interface ImportedFlags {
  seen: boolean;
  flagged: boolean;
  answered: boolean;
}

/** The remote flags we keep: \Seen, \Flagged, \Answered (IMAP flags compare without case). */
export function importedFlags(flags: Iterable<string> | undefined): ImportedFlags {
  const set = new Set([...(flags ?? [])].map((f) => f.toLowerCase()));
  return { seen: set.has('\\seen'), flagged: set.has('\\flagged'), answered: set.has('\\answered') };
}

/** The wait before the next try after `failures` server errors in a row: doubling from `baseMs`, at most `capMs`. */
export function backoffMs(failures: number, baseMs: number, capMs: number): number {
  if (failures <= 0) return 0;
  return Math.min(capMs, baseMs * 2 ** Math.min(failures - 1, 30));
}
