import type { Readable, Transform, Writable } from 'node:stream';
import { MimeNode, Splitter } from '@zone-eu/mailsplit';
import type { SplitterChunk } from '@zone-eu/mailsplit/lib/types.js';
import type { PartRange } from '../../core/db/index.js';

/** Node as the splitter emits it; `partId` is ours, attached while tracking. */
type TrackedNode = MimeNode & { partId?: string };

/**
 * mailparser's part id of a node (IMAP-style numbering; mailparser gives each attachment the same
 * id, computed the same way from the same splitter, so the two can be matched).
 */
function partIdOf(node: MimeNode): string {
  return (node.partNr || []).filter((nr) => typeof nr === 'number').join('.');
}

/**
 * A writable that runs the raw message through mailsplit's splitter (the one mailparser uses
 * inside) and learns the body range of every leaf part, by part id. The splitter hands on every
 * input byte exactly once, in order — a node's header block (`_headerlen`), then `data`
 * (preamble, boundary lines, epilogue) and `body` chunks — so a running sum of their lengths is
 * the position in the message; a body's bytes are exactly those mailparser decodes.
 */
export function partRangeTracker(): { input: Writable; ranges: Promise<Map<string, PartRange>> } {
  // mailsplit's types declare only its 'data' event; it is a Transform like any other.
  const splitter = new Splitter() as unknown as Transform;
  const ranges = new Map<string, PartRange>();
  let offset = 0;
  splitter.on('data', (chunk: SplitterChunk) => {
    if (chunk.type === 'node') {
      const node = chunk as TrackedNode;
      offset += node._headerlen;
      if (!node.multipart && !node.messageNode) {
        node.partId = partIdOf(node);
        const encoding =
          node.encoding === 'base64' || node.encoding === 'quoted-printable' ? node.encoding : 'binary';
        ranges.set(node.partId, { start: offset, end: offset, encoding });
      }
      return;
    }
    const { node, value } = chunk as { node: TrackedNode; value: Buffer };
    if (chunk.type === 'body' && node.partId !== undefined) {
      const range = ranges.get(node.partId);
      if (range) range.end = offset + value.length;
    }
    offset += value.length;
  });
  const done = new Promise<Map<string, PartRange>>((resolve, reject) => {
    splitter.on('end', () => resolve(ranges));
    splitter.on('error', reject);
  });
  // Ranges are only known once the whole message went through; nobody else reads the splitter.
  done.catch(() => undefined);
  return { input: splitter, ranges: done };
}

/** The body ranges of a message in memory. */
export function partRangesOf(raw: Buffer): Promise<Map<string, PartRange>> {
  const { input, ranges } = partRangeTracker();
  input.end(raw);
  return ranges;
}

/**
 * A part's decoded bytes from a stream of exactly its range of the raw message: the decoder
 * mailsplit picks for the part's transfer encoding, as mailparser decodes it at ingest.
 */
export function decodePart(encoded: Readable, encoding: PartRange['encoding']): Readable {
  const node = new MimeNode();
  node.addHeaderChunk(Buffer.from(`Content-Transfer-Encoding: ${encoding}\r\n\r\n`));
  node.parseHeaders();
  const decoder = node.getDecoder();
  encoded.on('error', (err) => decoder.destroy(err));
  return encoded.pipe(decoder);
}
