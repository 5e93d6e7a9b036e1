import { compile, supportedExtensions, type Extension } from './compile.js';
import { SieveSyntaxError } from './errors.js';
import { parse } from './parser.js';

/**
 * An account's filters as one script in Roundcube's form:
 *
 *     require ["fileinto","imap4flags"];
 *     # anything before the first rule (the preamble) is kept as it stands
 *     # rule:[Invoices]
 *     if address :is "from" "billing@example.com"
 *     {
 *     	fileinto "Invoices";
 *     }
 *
 * The `require` line is computed from what the rules use. A disabled rule is written the way Roundcube writes
 * one: `if false # <test>` when the rule is an `if` whose test is on its first line, otherwise every line
 * commented out with `#`. Pure: no I/O.
 */
export interface RulesFile {
  /** The text between the `require` line and the first rule (comments, usually), each line ending in "\n". */
  preamble: string;
  rules: RuleBlock[];
}

export interface RuleBlock {
  name: string;
  enabled: boolean;
  /** The rule's Sieve text as it runs when enabled, without its last line break. */
  text: string;
}

const ruleMarker = /^# rule:\[(.*)\]\r?$/;

/** The name a script without `# rule:` markers gets as its one filter when it has no comment to lend one. */
export const wholeScriptRuleName = 'Script';

/** Reads a script into its preamble and rules; never throws (a rule that does not compile is kept as text). */
export function splitRules(script: string): RulesFile {
  const body = withoutRequires(script);
  const lines = body.split('\n');
  const firstMarker = lines.findIndex((l) => ruleMarker.test(l));
  if (firstMarker < 0) return wholeScript(body);
  const preamble = lines
    .slice(0, firstMarker)
    .map((l) => `${l}\n`)
    .join('');
  const rules: RuleBlock[] = [];
  let current: { name: string; lines: string[] } | null = null;
  const close = () => {
    // The line break before the next marker belongs to the marker's line, not to the rule.
    if (current) rules.push(readRule(current.name, current.lines.join('\n')));
  };
  for (const line of lines.slice(firstMarker)) {
    const marker = ruleMarker.exec(line);
    if (marker) {
      close();
      current = { name: marker[1]!, lines: [] };
    } else current!.lines.push(line);
  }
  // The file's last line break gave split one empty line more.
  if (current && current.lines.at(-1) === '') current.lines.pop();
  close();
  return { preamble, rules };
}

/** Writes the preamble and rules back as one script, the `require` line first (when any extension is used). */
export function joinRules(file: RulesFile): string {
  const required = requiredExtensions(file.rules.map((r) => r.text));
  const head = required.length ? `require [${required.map((e) => JSON.stringify(e)).join(',')}];\n` : '';
  const preamble = file.preamble && !file.preamble.endsWith('\n') ? `${file.preamble}\n` : file.preamble;
  const rules = file.rules
    .map((r) => `# rule:[${r.name.replace(/[\r\n]+/g, ' ')}]\n${r.enabled ? r.text : disabledText(r.text)}\n`)
    .join('');
  return head + preamble + rules;
}

/**
 * The extensions a set of rule texts uses, in the order the interpreter lists them. A text that does not compile
 * adds nothing (saving refuses it anyway).
 */
export function requiredExtensions(texts: readonly string[]): Extension[] {
  const used = new Set<Extension>();
  for (const text of texts) {
    try {
      for (const e of compile(text, {}, { inferRequire: true }).extensions) used.add(e);
    } catch (err) {
      if (!(err instanceof SieveSyntaxError)) throw err;
    }
  }
  return supportedExtensions.filter((e) => used.has(e));
}

/** The rule's text as written when it is off. */
export function disabledText(text: string): string {
  const oneLineTest = /^if[ \t]+(\S[^\n]*)\n/.exec(text);
  if (oneLineTest && !oneLineTest[1]!.startsWith('false # ')) {
    const candidate = `if false # ${oneLineTest[1]}\n${text.slice(oneLineTest[0].length)}`;
    if (isLoneIf(candidate)) return candidate;
  }
  return text
    .split('\n')
    .map((l) => `#${l}`)
    .join('\n');
}

function readRule(name: string, text: string): RuleBlock {
  const ifFalse = /^if false # ([^\n]*)(\n[\s\S]*)?$/.exec(text);
  if (ifFalse && isLoneIf(text)) return { name, enabled: false, text: `if ${ifFalse[1]}${ifFalse[2] ?? ''}` };
  const lines = text.split('\n');
  if (lines.every((l) => l.startsWith('#'))) {
    const uncommented = lines.map((l) => l.slice(1)).join('\n');
    if (hasCommands(uncommented)) return { name, enabled: false, text: uncommented };
  }
  return { name, enabled: true, text };
}

/** A script without markers: one filter (named by its first comment), or only a preamble when it has no command. */
function wholeScript(body: string): RulesFile {
  if (!hasCommands(body) && parses(body)) return { preamble: body, rules: [] };
  let text = body.endsWith('\n') ? body.slice(0, -1) : body;
  text = text.replace(/^\n+/, '');
  const comment = /^[ \t]*#[ \t]*(\S[^\n]*)/m.exec(text);
  const name = comment ? comment[1]!.trim().slice(0, 200) : wholeScriptRuleName;
  return { preamble: '', rules: [{ name, enabled: true, text }] };
}

function parses(text: string): boolean {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
}

function hasCommands(text: string): boolean {
  try {
    return parse(text).length > 0;
  } catch {
    return false;
  }
}

/** Whether the text is exactly one `if` (no elsif/else that would still run once its test is `false`). */
function isLoneIf(text: string): boolean {
  try {
    const nodes = parse(text);
    return nodes.length === 1 && nodes[0]!.name === 'if';
  } catch {
    return false;
  }
}

/**
 * The script without the `require` commands at its top (before any other command): they are computed again on
 * join. Comments and blank lines between them stay; the line break after each `require` goes with it.
 */
function withoutRequires(script: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = at;
    at = skipSpaceAndComments(script, at);
    out += script.slice(start, at);
    if (!/^require\b/i.test(script.slice(at, at + 8))) break;
    const end = endOfCommand(script, at);
    if (end < 0) break;
    at = end;
    if (script[at] === '\r' && script[at + 1] === '\n') at += 2;
    else if (script[at] === '\n') at += 1;
  }
  return out + script.slice(at);
}

function skipSpaceAndComments(s: string, at: number): number {
  for (;;) {
    while (at < s.length && /\s/.test(s[at]!)) at++;
    if (s[at] === '#') {
      const nl = s.indexOf('\n', at);
      at = nl < 0 ? s.length : nl + 1;
    } else if (s.startsWith('/*', at)) {
      const close = s.indexOf('*/', at + 2);
      if (close < 0) return at;
      at = close + 2;
    } else return at;
  }
}

/** Where a simple command (`require "x";` or `require ["a","b"];`) ends, just after its ";"; -1 when unclear. */
function endOfCommand(s: string, at: number): number {
  for (let i = at; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
    } else if (c === ';') return i + 1;
    else if (c === '{' || c === '}') return -1;
  }
  return -1;
}

/** The name of the rule whose block holds a line of the script (1-based), or null before the first rule. */
export function ruleAtLine(script: string, line: number): string | null {
  let name: string | null = null;
  const lines = script.split('\n');
  for (let i = 0; i < Math.min(line, lines.length); i++) {
    const marker = ruleMarker.exec(lines[i]!);
    if (marker) name = marker[1]!;
  }
  return name;
}

/** Whether a script begins with its own `require` (then it is checked as written, not as a rule block). */
export function hasRequire(script: string): boolean {
  return withoutRequires(script) !== script;
}
