/**
 * mboxrd (the mbox variant every reader takes back without loss): each message follows a `From ` line and ends with
 * an empty line; a line of the message that begins with `From `, after any number of `>`, gets one more `>`, so a
 * reader removes one from each such line and has the bytes back.
 */

const LF = 0x0a;
const GT = 0x3e;
const FROM_ = Buffer.from('From ');

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number) => String(n).padStart(2, '0');

/** The separator line: `From sender asctime-date` (UTC), the sender an address without spaces or MAILER-DAEMON. */
export function mboxFromLine(sender: string, received: Date): Buffer {
  // eslint-disable-next-line no-control-regex
  const who = sender.replace(/[\s\u0000-\u001f\u007f]+/g, '') || 'MAILER-DAEMON';
  const d = received;
  const date =
    `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
  return Buffer.from(`From ${who} ${date}\n`);
}

/**
 * Quotes one message's bytes as they stream, whatever the chunk boundaries: only the start of a line that may still
 * become `>*From ` is held back (a run of `>` and at most four more bytes), the rest passes through as slices.
 */
export class MboxrdQuoter {
  /** At the start of a line that may still become `>*From `: how many `>` and how much of `From ` were held. */
  private atLineStart = true;
  private gts = 0;
  private matched = 0;
  private lastByte = LF;

  private held(): Buffer {
    return Buffer.concat([Buffer.alloc(this.gts, GT), FROM_.subarray(0, this.matched)]);
  }

  /** The chunk quoted: itself when nothing in it changed, else one buffer (few, large writes downstream). */
  push(chunk: Buffer): Buffer {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.atLineStart) {
        const byte = chunk[i]!;
        if (byte === GT && this.matched === 0) {
          this.gts++;
          i++;
          continue;
        }
        if (byte === FROM_[this.matched]) {
          this.matched++;
          i++;
          if (this.matched === FROM_.length) {
            out.push(Buffer.from([GT]), this.held());
            this.atLineStart = false;
          }
          continue;
        }
        if (this.gts || this.matched) out.push(this.held());
        this.atLineStart = false;
      }
      const end = chunk.indexOf(LF, i);
      const stop = end === -1 ? chunk.length : end + 1;
      out.push(chunk.subarray(i, stop));
      i = stop;
      if (end !== -1) this.startLine();
    }
    if (chunk.length) this.lastByte = chunk[chunk.length - 1]!;
    if (out.length === 1) return out[0]!;
    return Buffer.concat(out);
  }

  private startLine(): void {
    this.atLineStart = true;
    this.gts = 0;
    this.matched = 0;
  }

  /** What was held back, a line end when the message had none at its end, and the empty line after it. */
  end(): Buffer {
    const held = this.atLineStart ? this.held() : Buffer.alloc(0);
    this.startLine();
    const last = this.lastByte;
    this.lastByte = LF;
    return Buffer.concat([held, Buffer.from(last === LF ? '\n' : '\n\n')]);
  }
}
