const CR = 0x0d;
const LF = 0x0a;

/**
 * Watches DATA for a bare LF or a bare CR. smtp-server ends DATA only on CRLF.CRLF, but a
 * message that carries `\n.\n`, `\r.\r\n` or similar would be split in two by a lenient MTA the
 * moment we forward it ("SMTP smuggling", SEC Consult 2023). We refuse such messages with a
 * 5xx instead of normalising them, so what we store is always byte for byte what was sent and
 * never holds a second message in disguise. Chunks may split a CRLF: the last byte carries over.
 */
export class LineEndingCheck {
  private previous = -1;
  bare: 'LF' | 'CR' | undefined;

  push(chunk: Buffer): void {
    if (this.bare || chunk.length === 0) return;
    if (this.previous === CR && chunk[0] !== LF) {
      this.bare = 'CR';
      return;
    }
    for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) {
      const before = i > 0 ? chunk[i - 1] : this.previous;
      if (before !== CR) {
        this.bare = 'LF';
        return;
      }
    }
    for (let i = chunk.indexOf(CR); i !== -1; i = chunk.indexOf(CR, i + 1)) {
      if (i + 1 < chunk.length && chunk[i + 1] !== LF) {
        this.bare = 'CR';
        return;
      }
    }
    this.previous = chunk[chunk.length - 1]!;
  }

  /** Call once the data has ended: a final lone CR is bare too. */
  end(): void {
    if (!this.bare && this.previous === CR) this.bare = 'CR';
  }
}
