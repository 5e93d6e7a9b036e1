import { Readable } from 'node:stream';
import { Splitter } from '@zone-eu/mailsplit';
import type { SplitterChunk } from '@zone-eu/mailsplit';
import * as libbase64 from 'libbase64';
import * as libqp from 'libqp';
import {
  run,
  type BodyPart,
  type HeaderField,
  type Script,
  type SieveHost,
  type SieveResult,
} from '@mailroom/sieve';

/** What filters need to know about a message besides its bytes. */
export interface FilterContext {
  /** MAIL FROM ("" for the null sender <>). */
  envelopeFrom: string;
  /** The RCPT TO being delivered to. */
  envelopeTo: string;
  /** Whether the account has a mailbox of this name; a context that cannot tell answers true. */
  mailboxExists?: (name: string) => boolean;
  now?: () => Date;
  /** Whether to decode the body's parts (body :content and :text need them); false answers none. Default true. */
  bodyParts?: boolean;
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
  encoding: string;
  chunks: Buffer[];
}

/** Embedded messages deeper than this are matched as text, not entered. */
const maxEmbeddedDepth = 8;

/**
 * A leaf's body transfer-decoded in one go, with the decoders mailsplit's own streams run (libqp, libbase64), as
 * they run them: the streams gather the chunks (base64's waits a turn of the event loop for each) and decode at the
 * end, at twice a delivery filter's cost for a small message.
 */
function decodeLeaf(leaf: Leaf): Buffer {
  const body = Buffer.concat(leaf.chunks);
  if (leaf.encoding === 'base64')
    return libbase64.decode(body.toString('ascii').replace(/[^a-zA-Z0-9+/=]/g, ''));
  if (leaf.encoding === 'quoted-printable') return libqp.decode(body);
  return body;
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
        encoding: String(data.encoding || '').toLowerCase(),
        chunks: [],
      };
      leaves.push(current);
    } else if (data.type === 'body' && current) {
      current.chunks.push(data.value);
    }
  }
  const parts: BodyPart[] = [];
  for (const leaf of leaves) {
    const decoded = decodeLeaf(leaf);
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
  // Walking the MIME tree is most of a host's cost: a script without a body test does without it.
  const parts = context.bodyParts === false ? [] : await bodyPartsOf(raw, 0);
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

/**
 * Runs a compiled script on a message, reading what is dear only when the run asks for it: the MIME parts (most of
 * a run's cost) when a body test runs, and the account's mailboxes (a query) when a fileinto or mailboxexists
 * needs them; a body test behind a header test, or a fileinto in a rule that does not match, is often never
 * reached. The run is made without them and made again with what it wanted; the interpreter is pure, so a run
 * that stopped leaves nothing.
 */
export async function runOnMessage(
  script: Script,
  raw: Buffer,
  context: Omit<FilterContext, 'mailboxExists' | 'bodyParts'> & {
    mailboxes: () => Promise<(name: string) => boolean>;
  },
): Promise<SieveResult> {
  const wantsParts = new Error('the body parts are wanted');
  const wantsMailboxes = new Error('the mailboxes are wanted');
  const host = await sieveHostFor(raw, { ...context, bodyParts: false });
  let parts: SieveHost['bodyParts'] | null = null;
  let exists: ((name: string) => boolean) | null = null;
  for (;;) {
    try {
      return run(script, {
        ...host,
        bodyParts:
          parts ??
          (() => {
            throw wantsParts;
          }),
        mailboxExists:
          exists ??
          (() => {
            throw wantsMailboxes;
          }),
      });
    } catch (err) {
      if (err === wantsParts && !parts) parts = (await sieveHostFor(raw, context)).bodyParts;
      else if (err === wantsMailboxes && !exists) exists = await context.mailboxes();
      else throw err;
    }
  }
}
