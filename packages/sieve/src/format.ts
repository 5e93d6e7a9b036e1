import type { SieveResult } from './interpret.js';
import { canonicalFlag } from './interpret.js';

/** Flags for comparison: system flags capitalised (\Seen), sorted, each once. */
export function normaliseFlags(flags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of flags) {
    const c = canonicalFlag(f);
    const key = c.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      out.push(c);
    }
  }
  return out.sort();
}

const flagsSuffix = (flags: readonly string[]) => {
  const list = normaliseFlags(flags);
  return list.length ? ` flags=${list.join(',')}` : '';
};

/**
 * The outcome in the line form of `mailroom sieve test` (issue 14), one line each: the status,
 * then each action in order, the implicit keep last; `error "line N: …"` after a runtime error.
 */
export function formatResult(
  result: SieveResult | { status: 'compile-error'; error: { message: string } },
): string[] {
  const lines = [`status=${result.status}`];
  if (result.status === 'compile-error') {
    lines.push(`error ${JSON.stringify(result.error.message)}`);
    return lines;
  }
  if (result.error) lines.push(`error ${JSON.stringify(result.error.message)}`);
  for (const a of result.actions) {
    switch (a.type) {
      case 'keep':
        lines.push(`keep${flagsSuffix(a.flags)}`);
        break;
      case 'fileinto':
        if (a.mailbox.toUpperCase() === 'INBOX' && !a.create) lines.push(`keep${flagsSuffix(a.flags)}`);
        else
          lines.push(
            `fileinto ${JSON.stringify(a.mailbox)}${a.create ? ' create' : ''}${flagsSuffix(a.flags)}`,
          );
        break;
      case 'discard':
        lines.push('discard');
        break;
      case 'redirect':
        lines.push(`redirect ${JSON.stringify(a.address)}${a.copy ? ' copy' : ''}`);
        break;
      case 'reject':
      case 'ereject':
        lines.push(`${a.type} ${JSON.stringify(a.reason)}`);
        break;
      case 'vacation':
        lines.push(`vacation subject=${JSON.stringify(a.subject)} seconds=${a.seconds}`);
        break;
    }
  }
  if (result.implicitKeep) lines.push(`implicit-keep${flagsSuffix(result.implicitKeep.flags)}`);
  return lines;
}
