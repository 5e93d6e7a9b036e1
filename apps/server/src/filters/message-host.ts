import { Readable } from 'node:stream';
import { Splitter } from '@zone-eu/mailsplit';
import type { ContentStream, SplitterChunk } from '@zone-eu/mailsplit';
import type { BodyPart, HeaderField, SieveHost } from '@mailroom/sieve';

/** What filters need to know about a message besides its bytes. */
export interface FilterContext {
  /** MAIL FROM ("" for the null sender <>). */
  envelopeFrom: string;
  /** The RCPT TO being delivered to. */
  envelopeTo: string;
  /** Whether the account has a mailbox of this name; a context that cannot tell answers true. */
  mailboxExists?: (name: string) => boolean;
  now?: () => Date;
}

/** A body decoded to text: the part's charset through TextDecoder (Node has full ICU), UTF-8 when unknown. */
function decodeText(bytes: Buffer, charset: string | false): string {
  const label = (charset || 'utf-8').toLowerCase();
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

export function headerFields(block: Buffer): HeaderField[] {
  const text = block.toString('utf8');
  const fields: HeaderField[] = [];
  for (const line of text.split(/\r?\n(?![ \t])/)) {
    if (!line) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1) });
  }
  return fields;
}

/** Where the header ends: the index of the body's first byte (the length when there is no body). */
export function bodyStart(raw: Buffer): number {
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== 0x0a) continue;
    if (raw[i + 1] === 0x0a) return i + 2;
    if (raw[i + 1] === 0x0d && raw[i + 2] === 0x0a) return i + 3;
  }
  return raw.length;
}

interface Leaf {
  contentType: string;
  charset: string | false;
  rfc822: boolean;
  decoder: ContentStream;
  chunks: Buffer[];
}

/** Embedded messages deeper than this are matched as text, not entered. */
const maxEmbeddedDepth = 8;

async function decodeLeaf(leaf: Leaf): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const out: Buffer[] = [];
    leaf.decoder.on('data', (c: Buffer) => out.push(c));
    leaf.decoder.on('end', () => resolve(Buffer.concat(out)));
    leaf.decoder.on('error', reject);
    for (const c of leaf.chunks) leaf.decoder.write(c);
    leaf.decoder.end();
  });
}

/** The leaf parts of a message, embedded messages (message/rfc822) entered. */
async function bodyPartsOf(raw: Buffer, depth: number): Promise<BodyPart[]> {
  const leaves: Leaf[] = [];
  let current: Leaf | null = null;
  const splitter: AsyncIterable<SplitterChunk> = Readable.from([raw]).pipe(new Splitter());
  for await (const data of splitter) {
    if (data.type === 'node') {
      current = null;
      if (data.multipart) continue;
      current = {
        contentType: data.contentType || 'text/plain',
        charset: data.charset,
        rfc822: data.rfc822 && depth < maxEmbeddedDepth,
        decoder: data.getDecoder(),
        chunks: [],
      };
      leaves.push(current);
    } else if (data.type === 'body' && current) {
      current.chunks.push(data.value);
    }
  }
  const parts: BodyPart[] = [];
  for (const leaf of leaves) {
    const decoded = await decodeLeaf(leaf);
    if (leaf.rfc822) {
      parts.push(...(await bodyPartsOf(decoded, depth + 1)));
      continue;
    }
    // A part that is not text is still matched by body :content (as its bytes read as UTF-8).
    const isText = leaf.contentType.startsWith('text/');
    parts.push({ contentType: leaf.contentType, text: decodeText(decoded, isText ? leaf.charset : 'utf-8') });
  }
  return parts;
}

/**
 * Reads a raw message into the answers the Sieve interpreter asks for: the header fields in order,
 * the undecoded body, and each leaf MIME part (embedded messages entered) transfer-decoded and in
 * Unicode. mailsplit (mailparser's own splitter) walks the MIME tree and decodes base64 and
 * quoted-printable.
 */
export async function sieveHostFor(raw: Buffer, context: FilterContext): Promise<SieveHost> {
  const start = bodyStart(raw);
  const headers = headerFields(raw.subarray(0, start));
  const rawBody = raw.subarray(start).toString('utf8');
  const parts = await bodyPartsOf(raw, 0);
  const size = raw.length;
  return {
    headers: () => headers,
    size: () => size,
    rawBody: () => rawBody,
    bodyParts: () => parts,
    envelope: () => ({ from: context.envelopeFrom, to: context.envelopeTo }),
    mailboxExists: context.mailboxExists ?? (() => true),
    now: context.now ?? (() => new Date()),
  };
}

/** The header fields of a raw message, in order, undecoded. */
export const headerFieldsOf = (raw: Buffer): HeaderField[] => headerFields(raw.subarray(0, bodyStart(raw)));
