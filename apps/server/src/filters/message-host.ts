import {
  type BodyPart,
  type CompileOptions,
  type HeaderField,
  type SieveHost,
  type SieveResult,
} from '@mailroom/sieve';
import { bodyStart, headerFields, mimeLeaves } from './mime-leaves.js';
import { runInWorker, sharedBytes } from './sieve-pool.js';

/** What filters need to know about a message besides its bytes. */
export interface FilterContext {
  /** MAIL FROM ("" for the null sender <>). */
  envelopeFrom: string;
  /** The RCPT TO being delivered to. */
  envelopeTo: string;
  /** Whether the account has a mailbox of this name; a context that cannot tell answers true. */
  mailboxExists?: (name: string) => boolean;
  now?: () => Date;
  /** The spam scorer's score and threshold for spamtest (RFC 5235); absent: not tested. */
  spam?: { score: number; required: number };
  /** Whether to decode the body's parts (body :content and :text need them); false answers none. Default true. */
  bodyParts?: boolean;
  /**
   * Set when the bytes are only the message's head (a large message's first 64 KiB): a body test then calls this
   * instead of reading a body that is not there (the worker answers "wantsBody" and is run again with the body).
   */
  headOnly?: () => never;
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
    rawBody: () => {
      if (context.headOnly) context.headOnly();
      return (rawBody ??= raw.subarray(start).toString('utf8'));
    },
    bodyParts: () => {
      if (context.bodyParts === false) return [];
      if (context.headOnly) context.headOnly();
      return (parts ??= mimeLeaves(raw));
    },
    envelope: () => ({ from: context.envelopeFrom, to: context.envelopeTo }),
    mailboxExists: context.mailboxExists ?? (() => true),
    now: context.now ?? (() => new Date()),
    spamScore: () => context.spam ?? null,
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
 * Runs a script on a message in a Sieve worker (sieve-pool.ts: never on the event loop, within SIEVE_TIME_LIMIT_MS),
 * reading what is dear only when the run asks for it: the MIME parts when a body test runs, and the account's
 * mailboxes (a query) when a fileinto or mailboxexists needs them; a fileinto in a rule that does not match is often
 * never reached. The run is made without the mailboxes and made again with their names when it wanted them (the
 * message's bytes are shared with the workers once, for both); the interpreter is pure, so a run that stopped
 * leaves nothing. Null when the script does not compile or has no commands: no filter.
 */
export async function runOnMessage(
  script: { source: string; compileOptions?: CompileOptions },
  message: Buffer | FilterMessage,
  context: Omit<FilterContext, 'mailboxExists' | 'bodyParts' | 'now' | 'headOnly'> & {
    /** The names of the account's folders (those a fileinto finds). */
    mailboxes: () => Promise<string[]>;
    now?: Date;
  },
): Promise<SieveResult | null> {
  // A large message (FilterMessage) is run on its head first (its real size for `size` tests): only when a body test
  // runs is its first FILTER_BODY_MAX_BYTES read (the worker answers "wantsBody") and the run made again with it.
  const partial = !Buffer.isBuffer(message) && message.head.length < message.size;
  const job = {
    source: script.source,
    compileOptions: script.compileOptions ?? {},
    raw: sharedBytes(Buffer.isBuffer(message) ? message : message.head),
    size: Buffer.isBuffer(message) ? message.length : message.size,
    headOnly: partial,
    envelopeFrom: context.envelopeFrom,
    envelopeTo: context.envelopeTo,
    mailboxes: null as string[] | null,
    ...(context.now ? { now: context.now.getTime() } : {}),
    ...(context.spam ? { spam: context.spam } : {}),
  };
  for (;;) {
    const answer = await runInWorker(job);
    if ('result' in answer) return answer.result;
    if ('compileError' in answer) return null;
    if ('wantsBody' in answer) {
      if (!job.headOnly) throw new Error('the Sieve worker asked for a body it had');
      job.raw = sharedBytes(await (message as FilterMessage).body());
      job.headOnly = false;
      continue;
    }
    if (job.mailboxes) throw new Error('the Sieve worker asked twice for the mailboxes');
    job.mailboxes = await context.mailboxes();
  }
}
