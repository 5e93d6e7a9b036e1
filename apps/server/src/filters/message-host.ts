import { run, type HeaderField, type Script, type SieveHost, type SieveResult } from '@mailroom/sieve';
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
  // Walking the MIME tree is most of a host's cost: a script without a body test does without it.
  const parts = context.bodyParts === false ? [] : mimeLeaves(raw);
  const size = raw.length;
  return {
    headers: () => headers,
    size: () => size,
    rawBody: () => (rawBody ??= raw.subarray(start).toString('utf8')),
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
      if (err === wantsParts && !parts) {
        const leaves = mimeLeaves(raw);
        parts = () => leaves;
      } else if (err === wantsMailboxes && !exists) exists = await context.mailboxes();
      else throw err;
    }
  }
}
