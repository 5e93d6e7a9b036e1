import libmime from 'libmime';
import { importedDate } from '../mailbox/index.js';

/**
 * What an imported message's own header says about where it goes (pure): Google Takeout's X-Gmail-Labels, the
 * flags mail programs write into mbox files (Status, X-Status, X-Mozilla-Status) and the date it was received.
 */

/** The header fields of a message, names lowercased, in order (unfolded; bytes read as latin1, at most 256 KiB). */
export function headerFields(raw: Buffer): [name: string, value: string][] {
  let end = raw.indexOf('\n\n');
  const crlf = raw.indexOf('\r\n\r\n');
  if (crlf >= 0 && (end < 0 || crlf < end)) end = crlf;
  const text = raw.toString('latin1', 0, Math.min(end < 0 ? raw.length : end, 256 * 1024));
  const fields: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && fields.length) fields[fields.length - 1]![1] += ` ${line.trim()}`;
    else {
      const colon = line.indexOf(':');
      if (colon > 0) fields.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
    }
  }
  return fields;
}

export interface ImportFlags {
  seen: boolean;
  flagged: boolean;
  answered: boolean;
  draft: boolean;
  /** Marked deleted (expunged) in the source: Thunderbird keeps such messages in its mbox until it compacts it. */
  deleted: boolean;
}

/**
 * Flags from Status (`R` read), X-Status (`F` flagged, `A` answered, `T` draft, `D` deleted) and X-Mozilla-Status
 * (0x1 read, 0x2 replied, 0x4 marked, 0x8 expunged). A message none of them speaks of is taken as read: it comes
 * from an archive, not as new mail.
 */
export function flagsFromHeader(fields: [string, string][]): ImportFlags {
  const get = (name: string) => fields.find(([n]) => n === name)?.[1];
  const status = get('status');
  const xStatus = get('x-status') ?? '';
  const mozilla = get('x-mozilla-status');
  const moz = mozilla && /^[0-9a-f]{1,4}$/i.test(mozilla) ? parseInt(mozilla, 16) : null;
  const known = status !== undefined || moz !== null;
  return {
    seen: known ? (status?.includes('R') ?? false) || (moz !== null && (moz & 0x1) !== 0) : true,
    flagged: xStatus.includes('F') || (moz !== null && (moz & 0x4) !== 0),
    answered: xStatus.includes('A') || (moz !== null && (moz & 0x2) !== 0),
    draft: xStatus.includes('T'),
    deleted: xStatus.includes('D') || (moz !== null && (moz & 0x8) !== 0),
  };
}

/**
 * The labels of X-Gmail-Labels: comma-separated, a label with a comma in double quotes, non-ASCII ones as RFC 2047
 * encoded words. Null when the field is absent (not a Takeout message).
 */
export function gmailLabels(fields: [string, string][]): string[] | null {
  const value = fields.find(([n]) => n === 'x-gmail-labels')?.[1];
  if (value === undefined) return null;
  const labels: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      labels.push(current);
      current = '';
    } else current += ch;
  }
  labels.push(current);
  return labels
    .map((l) => {
      const trimmed = l.trim();
      try {
        return decodeLatin1Utf8(libmime.decodeWords(trimmed));
      } catch {
        return trimmed;
      }
    })
    .filter(Boolean);
}

/** Header text was read as latin1: UTF-8 bytes in it (a raw 8-bit label) read as UTF-8 again when they are. */
function decodeLatin1Utf8(text: string): string {
  // Only latin1 characters, some of them 8-bit: what raw UTF-8 read as latin1 looks like.
  if (!/[\u0080-\u00ff]/.test(text) || [...text].some((ch) => ch.charCodeAt(0) > 0xff)) return text;
  const utf8 = Buffer.from(text, 'latin1').toString('utf8');
  return utf8.includes('\ufffd') ? text : utf8;
}

/** The date of a Received field: after its last semicolon. */
function receivedFieldDate(value: string): Date | null {
  const at = value.lastIndexOf(';');
  if (at < 0) return null;
  const date = new Date(
    value
      .slice(at + 1)
      .replace(/\([^)]*\)/g, '')
      .trim(),
  );
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * When the message was received: the date of its topmost Received field (the last one added — by the mailbox that
 * received it), else the mbox `From ` line's (or the archive entry's) date, else its Date header's; an absurd date
 * (before 1980, after now) is passed over as importedDate does. Never the time of the import unless nothing else
 * says anything.
 */
export function receivedDate(
  fields: [string, string][],
  fileDate: Date | null,
  sentAt: Date | null,
  now = new Date(),
): Date {
  const received = fields.filter(([n]) => n === 'received').map(([, v]) => receivedFieldDate(v));
  const sane = (d: Date | null | undefined): d is Date =>
    !!d && d.getTime() >= Date.UTC(1980, 0, 1) && d.getTime() <= now.getTime() + 3600_000;
  const first = received.find(sane) ?? (sane(fileDate) ? fileDate : null);
  return importedDate(first ? null : sentAt, first, now);
}
