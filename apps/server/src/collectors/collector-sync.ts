import { createHash } from 'node:crypto';
import { FOLDER_DEPTH_MAX, collectorFolderSegment } from '@mailroom/protocol';

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
  const parts = delimiter ? remotePath.split(delimiter) : [remotePath];
  const room = FOLDER_DEPTH_MAX - (collectorFolder.split('.').length - 1);
  const kept = parts.length > room ? [...parts.slice(0, room - 1), parts.slice(room - 1).join('/')] : parts;
  return [collectorFolder, ...kept.map(collectorFolderSegment)].join('.');
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

const EARLIEST = Date.UTC(1980, 0, 1);
const SKEW_MS = 3600_000;

/**
 * The date an imported message keeps: the sender's (its Date header) unless that is missing or absurd (before 1980,
 * or later than the server received it plus an hour), then the server's INTERNALDATE, then now.
 */
export function importedDate(sentAt: Date | null, internalDate: Date | null, now = new Date()): Date {
  const received = internalDate && !Number.isNaN(internalDate.getTime()) ? internalDate : null;
  const limit = (received ?? now).getTime() + SKEW_MS;
  if (sentAt && !Number.isNaN(sentAt.getTime()) && sentAt.getTime() >= EARLIEST && sentAt.getTime() <= limit)
    return sentAt;
  return received ?? now;
}

/** The wait before the next try after `failures` server errors in a row: doubling from `baseMs`, at most `capMs`. */
export function backoffMs(failures: number, baseMs: number, capMs: number): number {
  if (failures <= 0) return 0;
  return Math.min(capMs, baseMs * 2 ** Math.min(failures - 1, 30));
}
