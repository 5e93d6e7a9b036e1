/**
 * Differences from Pigeonhole that are intended, each explained in KNOWN-DIFFERENCES.md. A case
 * that differs and matches none of these is a mismatch (the run fails).
 */
export interface DiffCase {
  script: string;
  message: string;
  theirs: string[];
  ours: string[];
  /** When we refused the script: our outcome without checking code that never runs. */
  oursUnchecked?: string[];
}

/** A :matches key with "?" then a literal before the first "*" (Pigeonhole skips those characters). */
const questionMarkBeforeStar = /"[^"*\\]*\?[^"*?\\][^"*]*\*/;

const rules: { name: string; applies: (c: DiffCase) => boolean }[] = [
  {
    // KNOWN-DIFFERENCES.md §1
    name: 'Pigeonhole aborts',
    applies: (c) => c.theirs[0]!.startsWith('status=unknown code=134'),
  },
  {
    // §2
    name: 'unreachable code is checked',
    applies: (c) => !!c.oursUnchecked && c.oursUnchecked.join('\n') === c.theirs.join('\n'),
  },
  {
    // §3
    name: ':matches "?" before the first "*"',
    applies: (c) => /:matches/.test(c.script) && questionMarkBeforeStar.test(c.script),
  },
  {
    // §4
    name: ':count with :index',
    applies: (c) => c.script.split('\n').some((line) => /:count\b/.test(line) && /:index\b/.test(line)),
  },
];

export function knownDifference(c: DiffCase): string | null {
  return rules.find((r) => r.applies(c))?.name ?? null;
}
