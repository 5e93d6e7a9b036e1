import type { MailImportReason } from '@mailroom/protocol';

/**
 * One item a reader found in an import file, in file order (`item` counts from 1): a message's exact bytes with where
 * it was, or what was left out and why. A reader never holds a message beyond IMPORT_MESSAGE_MAX_BYTES.
 */
export type ImportItem =
  | {
      kind: 'message';
      item: number;
      /** The archive entry's name, or `@offset` of an mbox message's From line. */
      where: string;
      raw: Buffer;
      /** The archive folders the message was in (none for an mbox or a single .eml). */
      folders: string[];
      /** The date of the mbox From line, or of the archive entry. */
      fileDate: Date | null;
      /** Stored with a remark (the file ended inside it). */
      remark?: MailImportReason;
    }
  | { kind: 'skipped'; item: number; where: string; reason: MailImportReason };

/** A file the import cannot go on with: a catalogue code (import_archive_bomb, import_archive_too_large, …). */
export class ImportRefused extends Error {
  constructor(readonly code: 'import_file_unreadable' | 'import_archive_bomb' | 'import_archive_too_large') {
    super(code);
  }
}

/** A message's bytes gathered up to a limit: past it they are dropped (counted, never held). */
export class BoundedBytes {
  private parts: Buffer[] = [];
  size = 0;
  constructor(private readonly max: number) {}
  get over(): boolean {
    return this.size > this.max;
  }
  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.max) this.parts = [];
    else if (chunk.length) this.parts.push(chunk);
  }
  /** The bytes, copied out of the chunks they came in (so those can be freed). */
  take(): Buffer {
    const out = Buffer.concat(this.parts, this.over ? 0 : this.size);
    this.parts = [];
    return out;
  }
}

/** A header line opens a message: a field name and a colon (RFC 5322 ftext). */
export function startsWithHeader(raw: Buffer): boolean {
  const head = raw.subarray(0, 1000).toString('latin1');
  return /^[\x21-\x39\x3b-\x7e]+[ \t]*:/.test(head);
}
