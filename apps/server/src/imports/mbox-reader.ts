import { IMPORT_MESSAGE_MAX_BYTES } from '@mailroom/protocol';
import { BoundedBytes, startsWithHeader, type ImportItem } from './import-item.js';

/**
 * Reads an mbox as a stream, a message at a time, never holding one beyond `maxBytes` (qmail's mbox(5) and RFC 4155):
 *
 * - A message starts at a `From ` line at the start of the file or after an empty line; the empty line before it
 *   belongs to the separator, not to the message before.
 * - mboxo and mboxrd: a body line `>From ` (`>>From `, …) loses one `>` (mboxrd's rule, which reads mboxo's quoting
 *   too).
 * - mboxcl2 (and mboxcl): a `Content-Length` header says how many body bytes follow; those are taken as they are,
 *   `From ` lines and all, and nothing in them is unquoted.
 *
 * A message with no header, the file ending inside a message's header, a message over the limit: skipped with a
 * reason; a message whose body the file ends inside is stored with the remark `truncated`.
 */
export async function* readMbox(
  source: AsyncIterable<Buffer>,
  maxBytes = IMPORT_MESSAGE_MAX_BYTES,
): AsyncGenerator<ImportItem> {
  const reader = new MboxReader(maxBytes);
  for await (const chunk of source) {
    reader.feed(chunk);
    yield* reader.drain();
  }
  reader.end();
  yield* reader.drain();
}

/** A line longer than this is passed through in pieces (it can be no separator worth looking at). */
const LONG_LINE = 64 * 1024;
const EMPTY = Buffer.alloc(0);

interface OpenMessage {
  start: number;
  fromDate: Date | null;
  bytes: BoundedBytes;
  inHeader: boolean;
  contentLength: number | null;
  /** Body bytes of a Content-Length still to take as they are. */
  counted: number;
}

class MboxReader {
  private item = 0;
  /** File offset of `data[0]`. */
  private offset = 0;
  private carry: Buffer = EMPTY;
  private message: OpenMessage | null = null;
  private prevBlank = true;
  private atLineStart = true;
  private strayBytes = false;
  private readonly out: ImportItem[] = [];

  constructor(private readonly maxBytes: number) {}

  *drain(): Generator<ImportItem> {
    while (this.out.length) yield this.out.shift()!;
  }

  feed(chunk: Buffer): void {
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const base = this.offset;
    this.carry = EMPTY;
    let pos = 0;
    // The message's bytes since the last line that changed anything: pushed as one piece.
    let run = 0;
    const flush = (to: number) => {
      if (this.message && to > run) this.message.bytes.push(data.subarray(run, to));
      run = to;
    };
    while (pos < data.length) {
      const message = this.message;
      if (message && message.counted > 0) {
        const n = Math.min(message.counted, data.length - pos);
        message.counted -= n;
        pos += n;
        if (message.counted === 0) {
          this.atLineStart = data[pos - 1] === 10;
          this.prevBlank = true;
        }
        continue;
      }
      const nl = data.indexOf(10, pos);
      if (nl < 0) {
        if (data.length - pos <= LONG_LINE) break;
        // A very long line: its start was seen; what follows is body bytes, whatever they hold.
        this.atLineStart = false;
        this.prevBlank = false;
        pos = data.length;
        break;
      }
      const end = nl + 1;
      if (!this.atLineStart) {
        this.atLineStart = true;
        this.prevBlank = false;
        pos = end;
        continue;
      }
      const first = data[pos]!;
      const length = end - pos;
      const blank = length === 1 || (length === 2 && first === 13);
      if (first === 0x46 && this.prevBlank && isFromLine(data, pos, end)) {
        flush(pos);
        this.finish(false);
        this.message = {
          start: base + pos,
          fromDate: fromLineDate(data.toString('latin1', pos, end)),
          bytes: new BoundedBytes(this.maxBytes),
          inHeader: true,
          contentLength: null,
          counted: 0,
        };
        run = end;
      } else if (!message) {
        if (!blank) this.strayBytes = true;
        run = end;
      } else if (message.inHeader) {
        if (blank) {
          message.inHeader = false;
          if (message.contentLength !== null && message.contentLength > 0) {
            flush(end);
            message.counted = message.contentLength;
          }
        } else if ((first === 0x43 || first === 0x63) && length < 200) {
          const m = /^content-length:[ \t]*(\d{1,12})[ \t]*\r?\n$/i.exec(data.toString('latin1', pos, end));
          if (m && Number(m[1]) <= this.maxBytes) message.contentLength = Number(m[1]);
        }
      } else if (first === 0x3e && message.contentLength === null && isQuotedFrom(data, pos, end)) {
        flush(pos);
        message.bytes.push(data.subarray(pos + 1, end));
        run = end;
      }
      this.prevBlank = blank;
      pos = end;
    }
    flush(pos);
    this.carry = pos < data.length ? Buffer.from(data.subarray(pos)) : EMPTY;
    this.offset = base + pos;
  }

  end(): void {
    const endedInLine = this.carry.length > 0 || !this.atLineStart;
    if (this.carry.length) {
      this.message?.bytes.push(this.carry);
      if (!this.message && this.carry.toString('latin1').trim()) this.strayBytes = true;
    }
    this.carry = EMPTY;
    this.finish(true, endedInLine);
    if (this.strayBytes) {
      this.strayBytes = false;
      this.out.push({ kind: 'skipped', item: ++this.item, where: '@0', reason: 'no_headers' });
    }
  }

  private finish(atEnd: boolean, endedInLine = false): void {
    const message = this.message;
    if (!message) return;
    this.message = null;
    const item = ++this.item;
    const where = `@${message.start}`;
    if (message.bytes.over) {
      this.out.push({ kind: 'skipped', item, where, reason: 'too_large' });
      return;
    }
    const raw = withoutSeparatorLine(message.bytes.take());
    if (atEnd && message.inHeader) {
      this.out.push({ kind: 'skipped', item, where, reason: raw.length ? 'truncated' : 'no_headers' });
      return;
    }
    if (!raw.length || !startsWithHeader(raw)) {
      this.out.push({ kind: 'skipped', item, where, reason: 'no_headers' });
      return;
    }
    const cut = atEnd && (endedInLine || message.counted > 0);
    this.out.push({
      kind: 'message',
      item,
      where,
      raw,
      folders: [],
      fileDate: message.fromDate,
      ...(cut ? { remark: 'truncated' as const } : {}),
    });
  }
}

/** `From ` and something after it (a sender, a date). */
function isFromLine(data: Buffer, start: number, end: number): boolean {
  return (
    end - start > 6 &&
    data[start + 1] === 0x72 &&
    data[start + 2] === 0x6f &&
    data[start + 3] === 0x6d &&
    data[start + 4] === 0x20
  );
}

/** `>From `, `>>From `, …: a body line an mbox writer quoted. */
function isQuotedFrom(data: Buffer, start: number, end: number): boolean {
  let i = start;
  while (i < end && data[i] === 0x3e) i++;
  return end - i >= 5 && data.toString('latin1', i, i + 5) === 'From ';
}

/** The empty line an mbox writer puts before the next `From ` line is not the message's. */
function withoutSeparatorLine(raw: Buffer): Buffer {
  const n = raw.length;
  if (n >= 4 && raw[n - 1] === 10 && raw[n - 2] === 13 && raw[n - 3] === 10 && raw[n - 4] === 13)
    return raw.subarray(0, n - 2);
  if (n >= 2 && raw[n - 1] === 10 && raw[n - 2] === 10) return raw.subarray(0, n - 1);
  return raw;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The date of a `From sender date` line: asctime (`Mon Jan  1 00:00:00 2001`, UTC), with or without a zone before
 * the year (`Wed Apr 16 12:00:00 +0000 2025`, Google Takeout's). Null when there is none.
 */
export function fromLineDate(line: string): Date | null {
  const m =
    /\b[A-Za-z]{3}\s+([A-Za-z]{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s+(?:([+-]\d{4}|[A-Z]{1,5})\s+)?(\d{4})\b/.exec(
      line,
    );
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!.toLowerCase());
  if (month < 0) return null;
  let ms = Date.UTC(Number(m[7]), month, Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5] ?? 0));
  const zone = m[6];
  if (zone && /^[+-]\d{4}$/.test(zone)) {
    const minutes = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3));
    ms -= (zone[0] === '-' ? -1 : 1) * minutes * 60_000;
  }
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date;
}
