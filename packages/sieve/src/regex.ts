import { RE2JS } from 're2js';
import type { ComparatorName } from './compile.js';

type Compiled =
  { regex: RE2JS; size: number; error?: undefined } | { regex?: undefined; size?: undefined; error: string };
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
    const regex = RE2JS.compile(posixToRe2(pattern), flags);
    compiled = { regex, size: programSize(regex, pattern) };
  } catch (err) {
    compiled = { error: err instanceof Error ? err.message : String(err) };
  }
  if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/**
 * The number of instructions of a compiled pattern: RE2 steps each of them over each character of the
 * text at worst, so a match costs about this many units per character (`a{1000}` is 7 characters
 * and a thousand instructions). Read from RE2JS's compiled program; its pattern length if that is
 * not there (another RE2JS version).
 */
function programSize(regex: RE2JS, pattern: string): number {
  const prog = (regex as unknown as { re2Input?: { prog?: { inst?: unknown[] } } }).re2Input?.prog;
  return Math.max(1, Array.isArray(prog?.inst) ? prog.inst.length : pattern.length);
}

/**
 * POSIX extended syntax as glibc reads it, rewritten for RE2: inside a bracket expression a
 * backslash is an ordinary character and a leading "]" is literal; outside, `\<` and `\>` are word
 * bounds, `` \` `` and `\'` the ends of the text, and a backslash before a letter that is no
 * operator (`\F`) is that letter. Back-references (`\1`) are kept, and RE2 refuses them.
 */
export function posixToRe2(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '[') {
      let j = i + 1;
      let cls = '[';
      if (pattern[j] === '^') {
        cls += '^';
        j++;
      }
      if (pattern[j] === ']') {
        cls += '\\]';
        j++;
      }
      for (; j < pattern.length && pattern[j] !== ']'; j++) {
        const d = pattern[j]!;
        if (d === '[' && (pattern[j + 1] === ':' || pattern[j + 1] === '.' || pattern[j + 1] === '=')) {
          const end = pattern.indexOf(`${pattern[j + 1]}]`, j + 2);
          if (end > 0) {
            cls += pattern.slice(j, end + 2);
            j = end + 1;
            continue;
          }
        }
        cls += d === '\\' || d === '[' ? `\\${d}` : d;
      }
      if (j >= pattern.length) return pattern; // unterminated: let RE2 report it
      out += cls + ']';
      i = j;
    } else if (c === '\\' && i + 1 < pattern.length) {
      const d = pattern[++i]!;
      if ('wWsSbB'.includes(d) || /[1-9]/.test(d)) out += `\\${d}`;
      else if (d === '<' || d === '>') out += '\\b';
      else if (d === '`') out += '\\A';
      else if (d === "'") out += '\\z';
      else if (/[A-Za-z0-9]/.test(d)) out += d;
      else out += `\\${d}`;
    } else out += c;
  }
  return out;
}

/** The whole match and its groups ("" for a group that took no part), or null. */
export function regexMatch(regex: RE2JS, value: string): string[] | null {
  const m = regex.matcher(value);
  if (!m.find()) return null;
  const groups: string[] = [];
  for (let g = 0; g <= m.groupCount(); g++) groups.push(m.group(g) ?? '');
  return groups;
}
