import {
  run,
  type BodyPart,
  type HeaderField,
  type Script,
  type SieveHost,
  type SieveResult,
} from '@mailroom/sieve';
import { bodyStart, headerFields, mimeLeaves } from './mime-leaves.js';

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

/**
 * Reads a raw message into the answers the Sieve interpreter asks for: the header fields in order,
 * the undecoded body, and each leaf MIME part (embedded messages entered) transfer-decoded and in
 * Unicode (`mime-leaves.ts`).
 */
export async function sieveHostFor(
  raw: Buffer,
  context: FilterContext,
  /** The whole message's size when `raw` is only its beginning (FilterMessage). */
  size = raw.length,
): Promise<SieveHost> {
  const start = bodyStart(raw);
  const headers = headerFields(raw.subarray(0, start));
  // Decoded only for a `body :raw` test.
  let rawBody: string | undefined;
  // Walking the MIME tree is most of a host's cost: done only when a body test asks (each part decoded when read).
  let parts: BodyPart[] | undefined;
  return {
    headers: () => headers,
    size: () => size,
    rawBody: () => (rawBody ??= raw.subarray(start).toString('utf8')),
    bodyParts: () => (context.bodyParts === false ? [] : (parts ??= mimeLeaves(raw))),
    envelope: () => ({ from: context.envelopeFrom, to: context.envelopeTo }),
    mailboxExists: context.mailboxExists ?? (() => true),
    now: context.now ?? (() => new Date()),
  };
}

/**
 * A message too large to hold in memory for its filters (a received one, spooled to a file): its size, its first
 * bytes (`head`, the whole header when it fits), and `body()`, the bytes that body tests read — read only when a
 * test that runs asks for the body, and at most FILTER_BODY_MAX_BYTES of them (deliver.ts).
 */
export interface FilterMessage {
  size: number;
  head: Buffer;
  body: () => Promise<Buffer>;
}

/**
 * What body tests see of a larger message: its first 4 MiB (the header included), as much as the reader shows of a
 * body (MAX_BODY_CHARS). A message of 70 MB read whole for a `body :contains` test, and its parts decoded to strings,
 * cost several times its size in memory for each delivery at once (issue 28).
 */
export const FILTER_BODY_MAX_BYTES = 4 * 1024 * 1024;

/** The header fields of a raw message, in order, undecoded. */
export const headerFieldsOf = (raw: Buffer): HeaderField[] => headerFields(raw.subarray(0, bodyStart(raw)));

/**
 * Runs a compiled script on a message, reading what is dear only when the run asks for it: the MIME parts when a
 * body test runs (synchronously, from the bytes), and the account's mailboxes (a query) when a fileinto or
 * mailboxexists needs them; a fileinto in a rule that does not match is often never reached. The run is made without
 * the mailboxes and made again with them when it wanted them; the interpreter is pure, so a run that stopped leaves
 * nothing.
 */
export async function runOnMessage(
  script: Script,
  message: Buffer | FilterMessage,
  context: Omit<FilterContext, 'mailboxExists' | 'bodyParts'> & {
    mailboxes: () => Promise<(name: string) => boolean>;
  },
): Promise<SieveResult> {
  const wantsMailboxes = new Error('the mailboxes are wanted');
  const wantsBody = new Error('the body is wanted');
  // A FilterMessage is run on its head first; a run that asks for the body is made again with it.
  let host: SieveHost;
  let bodyLoaded = Buffer.isBuffer(message);
  if (Buffer.isBuffer(message)) host = await sieveHostFor(message, context);
  else if (bodyStart(message.head) < message.head.length || message.head.length >= message.size) {
    const headOnly = await sieveHostFor(message.head, context, message.size);
    const needBody = (): never => {
      throw wantsBody;
    };
    host = { ...headOnly, rawBody: needBody, bodyParts: needBody };
  } else {
    // A header longer than the head: read as much as body tests would.
    host = await sieveHostFor(await message.body(), context, message.size);
    bodyLoaded = true;
  }
  let exists: ((name: string) => boolean) | null = null;
  for (;;) {
    try {
      return run(script, {
        ...host,
        mailboxExists:
          exists ??
          (() => {
            throw wantsMailboxes;
          }),
      });
    } catch (err) {
      if (err === wantsMailboxes && !exists) exists = await context.mailboxes();
      else if (err === wantsBody && !bodyLoaded && !Buffer.isBuffer(message)) {
        host = await sieveHostFor(await message.body(), context, message.size);
        bodyLoaded = true;
      } else throw err;
    }
  }
}
