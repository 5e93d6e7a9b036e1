import { RE2JS } from 're2js';
import type { ComparatorName } from './compile.js';

type Compiled = { regex: RE2JS; error?: undefined } | { regex?: undefined; error: string };
const cache = new Map<string, Compiled>();
const cacheSize = 256;

/**
 * `:regex` (draft-ietf-sieve-regex) runs on RE2JS, a port of RE2: matching is linear in the input,
 * so no pattern (e.g. `(a+)+$`) can backtrack for ever. POSIX extended syntax as Pigeonhole's
 * regcomp takes it is read by RE2's syntax: the common part (alternation, groups, classes such as
 * [[:alpha:]], bounds) means the same; back-references are refused. Like POSIX, "." matches a line
 * break and the leftmost-longest match is taken. Compiled patterns are kept (the last 256).
 */
export function compileRegex(pattern: string, comparator: ComparatorName): Compiled {
  const key = `${comparator} ${pattern}`;
  let compiled = cache.get(key);
  if (compiled) return compiled;
  try {
    const flags =
      RE2JS.DOTALL | RE2JS.LONGEST_MATCH | (comparator === 'i;ascii-casemap' ? RE2JS.CASE_INSENSITIVE : 0);
    compiled = { regex: RE2JS.compile(pattern, flags) };
  } catch (err) {
    compiled = { error: err instanceof Error ? err.message : String(err) };
  }
  if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/** The whole match and its groups ("" for a group that took no part), or null. */
export function regexMatch(regex: RE2JS, value: string): string[] | null {
  const m = regex.matcher(value);
  if (!m.find()) return null;
  const groups: string[] = [];
  for (let g = 0; g <= m.groupCount(); g++) groups.push(m.group(g) ?? '');
  return groups;
}
