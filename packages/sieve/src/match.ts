import type { ComparatorName, MatchSpec, Relation } from './compile.js';
import { compileRegex, regexMatch } from './regex.js';

/** Counts work so that a run can be stopped when it spends its budget. */
export interface StepCounter {
  spend(steps: number): void;
  /** After one long piece of work (a regex match): stops the run if it is past its time. */
  checkClock?(): void;
}

/** i;ascii-casemap folds A-Z only (RFC 4790 §9.2); other characters compare as they are. */
export function asciiFold(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** i;ascii-numeric (RFC 4790 §9.1): the leading digits as a number; none means positive infinity. */
function numericKey(s: string): string | null {
  const m = /^[0-9]+/.exec(s);
  if (!m) return null;
  return m[0].replace(/^0+(?=.)/, '');
}
function compareNumeric(a: string, b: string): number {
  const x = numericKey(a);
  const y = numericKey(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compare(comparator: ComparatorName, a: string, b: string): number {
  if (comparator === 'i;ascii-numeric') return compareNumeric(a, b);
  if (comparator === 'i;ascii-casemap') {
    a = asciiFold(a);
    b = asciiFold(b);
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function relationHolds(relation: Relation, order: number): boolean {
  switch (relation) {
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
  }
}

type GlobToken = { lit: string } | { wild: '*' | '?' };

function globTokens(pattern: string): GlobToken[] {
  const out: GlobToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out.push({ lit: pattern[++i]! });
    else if (c === '*' || c === '?') out.push({ wild: c });
    else out.push({ lit: c });
  }
  return out;
}

/**
 * `:matches` (RFC 5228 §2.7.1): "*" any run, "?" one character, "\" quotes. Runs in O(n·m) at
 * worst: on a mismatch only the last "*" is widened (earlier ones keep their shortest match, which
 * is what RFC 5229 match variables report). Returns the text each wildcard took, or null.
 */
export function globMatch(
  pattern: string,
  value: string,
  fold: boolean,
  steps: StepCounter,
): string[] | null {
  const toks = globTokens(fold ? asciiFold(pattern) : pattern);
  const v = fold ? asciiFold(value) : value;
  const m = toks.length;
  const n = v.length;
  const starts = new Array<number>(m).fill(0);
  const ends = new Array<number>(m).fill(0);
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = -1;
  let work = 0;
  while (s < n) {
    if (++work >= 1024) {
      steps.spend(work);
      work = 0;
    }
    const t = toks[p];
    if (t && 'wild' in t && t.wild === '?') {
      starts[p] = s;
      ends[p] = s + 1;
      p++;
      s++;
    } else if (t && 'lit' in t && t.lit === v[s]) {
      p++;
      s++;
    } else if (t && 'wild' in t) {
      starP = p;
      starS = s;
      starts[p] = s;
      ends[p] = s;
      p++;
    } else if (starP >= 0) {
      starS++;
      ends[starP] = starS;
      p = starP + 1;
      s = starS;
    } else {
      steps.spend(work);
      return null;
    }
  }
  steps.spend(work);
  while (p < m && 'wild' in toks[p]! && (toks[p] as { wild: string }).wild === '*') {
    starts[p] = n;
    ends[p] = n;
    p++;
  }
  if (p !== m) return null;
  const captures: string[] = [];
  toks.forEach((t, i) => {
    if ('wild' in t) captures.push(value.slice(starts[i], ends[i]));
  });
  return captures;
}

export interface MatchOutcome {
  matched: boolean;
  /** Match variables to set (`${0}` first) when the match type gives them. */
  captures?: string[];
}

/**
 * Whether any value matches any key, per the match type and comparator. For `:count` the values
 * are counted (the caller passes all of them); relational `:value` compares each pair.
 */
export function matchValues(
  spec: MatchSpec,
  values: string[],
  keys: string[],
  steps: StepCounter,
): MatchOutcome {
  const { comparator, type } = spec;
  if (type === 'count') {
    const count = String(values.length);
    return { matched: keys.some((k) => relationHolds(spec.relation!, compare(comparator, count, k))) };
  }
  const fold = comparator === 'i;ascii-casemap';
  for (const value of values) {
    steps.spend(1);
    for (const key of keys) {
      steps.spend(1);
      switch (type) {
        case 'is':
          if (compare(comparator, value, key) === 0) return { matched: true };
          break;
        case 'value':
          if (relationHolds(spec.relation!, compare(comparator, value, key))) return { matched: true };
          break;
        case 'contains':
          steps.spend(Math.ceil(value.length / 8));
          if ((fold ? asciiFold(value) : value).includes(fold ? asciiFold(key) : key))
            return { matched: true };
          break;
        case 'matches': {
          const captures = globMatch(key, value, fold, steps);
          if (captures) return { matched: true, captures: [value, ...captures] };
          break;
        }
        case 'regex': {
          const compiled = compileRegex(key, comparator);
          if (!compiled.regex) break;
          // RE2 runs each of the pattern's instructions over each character (RE2JS: some 15-75 ns per pair).
          steps.spend(compiled.size * Math.max(1, value.length));
          const groups = regexMatch(compiled.regex, value);
          steps.checkClock?.();
          if (groups) return { matched: true, captures: groups };
          break;
        }
      }
    }
  }
  return { matched: false };
}
