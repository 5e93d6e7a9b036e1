import { evaluate, formatResult } from '@mailroom/sieve';
import { sieveHostFor } from './message-host.js';

export interface SieveTestOptions {
  script: string;
  message: Buffer;
  /** MAIL FROM; the message's Return-Path when absent, else sender@example.com. */
  from?: string;
  /** RCPT TO; recipient@example.com when absent. */
  to?: string;
  now?: Date;
  /** How long the run may take, as on the server (SIEVE_TIME_LIMIT_MS); null for no limit. */
  timeLimitMs: number | null;
}

function returnPath(raw: Buffer): string | null {
  const head = raw.subarray(0, 64 * 1024).toString('utf8');
  const m = /^return-path:[ \t]*<([^>]*)>/im.exec(head);
  return m ? m[1]! : null;
}

/**
 * Runs a script against one message without any mailbox (every folder counts as existing, as in
 * Pigeonhole's sieve-test): the outcome's lines (`status=…`, then the actions) and the exit code
 * 0 / 1 / 2 for success / runtime failure / compile error.
 */
export async function runSieveTest(
  options: SieveTestOptions,
): Promise<{ lines: string[]; exitCode: 0 | 1 | 2 }> {
  const host = await sieveHostFor(options.message, {
    envelopeFrom: options.from ?? returnPath(options.message) ?? 'sender@example.com',
    envelopeTo: options.to ?? 'recipient@example.com',
    ...(options.now ? { now: () => options.now! } : {}),
  });
  const outcome = evaluate(options.script, host, { timeLimitMs: options.timeLimitMs });
  const exitCode = outcome.status === 'success' ? 0 : outcome.status === 'failed' ? 1 : 2;
  return { lines: formatResult(outcome), exitCode };
}
