import { Transform, type TransformCallback } from 'node:stream';

/** A header field of a message as it arrived: its name and its raw lines (CRLF and folding kept). */
export interface HeadField {
  name: string;
  raw: Buffer;
}

export interface HeadRewriteOptions {
  /** Written before the first field (header lines ending in CRLF). */
  prepend?: string;
  /** What becomes of a field: kept as it is (undefined), dropped (null), or written as other bytes. */
  rewrite?: (field: HeadField) => Buffer | null | undefined;
}

/** A field longer than this is passed on as it is, unread: memory stays bounded whatever a header holds. */
const MAX_FIELD_BYTES = 256 * 1024;

/**
 * Rewrites a message's header as it streams past, field by field, and passes the body on untouched: prepends lines
 * (our Authentication-Results), drops or changes fields (one claiming our authserv-id, DKIM signatures past the
 * number verified). Memory is one field at most (`MAX_FIELD_BYTES`), whatever the message's size.
 */
export class HeadRewrite {
  private inHead = true;
  private prepended = false;
  private field: Buffer[] = [];
  private fieldBytes = 0;
  /** A field too long to judge: passed on as it comes until the next field starts. */
  private passing = false;
  private partial: Buffer = Buffer.alloc(0);

  constructor(private readonly options: HeadRewriteOptions) {}

  /** The bytes to write for this chunk. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    if (!this.prepended) {
      this.prepended = true;
      if (this.options.prepend) out.push(Buffer.from(this.options.prepend));
    }
    if (!this.inHead) {
      out.push(chunk);
      return out;
    }
    const data = this.partial.length ? Buffer.concat([this.partial, chunk]) : chunk;
    this.partial = Buffer.alloc(0);
    let start = 0;
    while (this.inHead) {
      const nl = data.indexOf(10, start);
      if (nl < 0) {
        const rest = data.subarray(start);
        // A line longer than a field may be: passed on as it is.
        if (rest.length > MAX_FIELD_BYTES) {
          this.flushField(out);
          this.passing = true;
          out.push(rest);
        } else this.partial = rest;
        return out;
      }
      const line = data.subarray(start, nl + 1);
      start = nl + 1;
      this.line(line, out);
    }
    out.push(data.subarray(start));
    return out;
  }

  /** What is left once the message has ended (a header without a body). */
  end(): Buffer[] {
    const out: Buffer[] = [];
    if (!this.prepended) {
      this.prepended = true;
      if (this.options.prepend) out.push(Buffer.from(this.options.prepend));
    }
    if (this.partial.length) {
      if (this.inHead) this.line(this.partial, out);
      else out.push(this.partial);
      this.partial = Buffer.alloc(0);
    }
    this.flushField(out);
    return out;
  }

  private line(line: Buffer, out: Buffer[]): void {
    const first = line[0];
    if (first === 32 || first === 9) {
      // A folded line: more of the field being read.
      if (this.passing) return void out.push(line);
      this.field.push(line);
      this.fieldBytes += line.length;
      if (this.fieldBytes > MAX_FIELD_BYTES) {
        out.push(...this.field);
        this.field = [];
        this.fieldBytes = 0;
        this.passing = true;
      }
      return;
    }
    this.flushField(out);
    this.passing = false;
    if (first === 13 || first === 10) {
      // The blank line: the body follows, untouched.
      out.push(line);
      this.inHead = false;
      return;
    }
    this.field = [line];
    this.fieldBytes = line.length;
  }

  private flushField(out: Buffer[]): void {
    if (!this.field.length) return;
    const raw = this.field.length === 1 ? this.field[0]! : Buffer.concat(this.field);
    this.field = [];
    this.fieldBytes = 0;
    const colon = raw.indexOf(58);
    const name = colon > 0 ? raw.subarray(0, colon).toString('latin1').trim() : '';
    const result = this.options.rewrite && name ? this.options.rewrite({ name, raw }) : undefined;
    if (result === undefined) out.push(raw);
    else if (result !== null) out.push(result);
  }
}

/** A HeadRewrite as a stream. */
export function headRewriteStream(options: HeadRewriteOptions): Transform {
  const rewrite = new HeadRewrite(options);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      for (const part of rewrite.push(chunk)) this.push(part);
      callback();
    },
    flush(callback: TransformCallback) {
      for (const part of rewrite.end()) this.push(part);
      callback();
    },
  });
}

/** A HeadRewrite over bytes in memory. */
export function rewriteHead(bytes: Buffer, options: HeadRewriteOptions): Buffer {
  const rewrite = new HeadRewrite(options);
  return Buffer.concat([...rewrite.push(bytes), ...rewrite.end()]);
}

/**
 * The authserv-id an Authentication-Results field names (RFC 8601 §2.2: the first token, after comments), lowercased;
 * '' when there is none.
 */
export function authservIdOf(field: HeadField): string {
  const value = field.raw
    .subarray(field.raw.indexOf(58) + 1)
    .toString('latin1')
    .replace(/\r?\n[ \t]/g, ' ');
  const withoutComments = value.replace(/\((?:[^()\\]|\\.)*\)/g, ' ').trim();
  const id = /^"((?:[^"\\]|\\.)*)"|^([^\s;]+)/.exec(withoutComments);
  return (id?.[1] ?? id?.[2] ?? '').toLowerCase();
}
