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
export async function sieveHostFor(raw: Buffer, context: FilterContext): Promise<SieveHost> {
  const start = bodyStart(raw);
  const headers = headerFields(raw.subarray(0, start));
  // Decoded only for a `body :raw` test.
  let rawBody: string | undefined;
  // Walking the MIME tree is most of a host's cost: done only when a body test asks (each part decoded when read).
  let parts: BodyPart[] | undefined;
  const size = raw.length;
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
  raw: Buffer,
  context: Omit<FilterContext, 'mailboxExists' | 'bodyParts'> & {
    mailboxes: () => Promise<(name: string) => boolean>;
  },
): Promise<SieveResult> {
  const wantsMailboxes = new Error('the mailboxes are wanted');
  const host = await sieveHostFor(raw, context);
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
      else throw err;
    }
  }
}
