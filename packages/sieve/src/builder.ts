import { isValidAddress } from './address.js';
import type { Extension } from './compile.js';
import { SieveSyntaxError } from './errors.js';
import { tokenize, type Token } from './lexer.js';
import { parse, type Argument, type CommandNode, type TestNode } from './parser.js';

/**
 * The filter builder's model (issue 14: "a builder for the common case"): one rule block of a filter, written as
 * Sieve and read back. The builder writes one form only, and `builderFromSieve` accepts exactly that form, so a rule
 * written or changed by hand opens in the raw editor instead of being silently rewritten.
 *
 * The block's test is on one line (`if allof (…)`) so a Roundcube-style switch-off (`if false # allof (…)`) keeps the
 * whole test in the comment; the server adds the `require` lines of the whole script.
 */

export const builderFields = ['from', 'to_cc', 'subject', 'header', 'body', 'size', 'attachment'] as const;
export type BuilderField = (typeof builderFields)[number];

/** The text comparisons; `over` and `under` are the size's. */
export const builderTextOps = ['contains', 'is', 'matches', 'starts', 'ends', 'regex'] as const;
export const builderSizeOps = ['over', 'under'] as const;
export type BuilderOp = (typeof builderTextOps)[number] | (typeof builderSizeOps)[number];

export interface BuilderCondition {
  field: BuilderField;
  /** The header field's name when `field` is 'header'. */
  header?: string;
  op: BuilderOp;
  /** The text compared; for size a number of bytes with an optional K, M or G; unused for attachment. */
  value: string;
  negate: boolean;
}

export type BuilderAction =
  | { type: 'move'; folder: string }
  | { type: 'copy'; folder: string }
  | { type: 'label'; label: string }
  | { type: 'read' }
  | { type: 'flag' }
  | { type: 'forward'; address: string; keepCopy: boolean }
  | { type: 'reply'; subject: string; text: string; days: number }
  | { type: 'reject'; reason: string }
  | { type: 'delete' }
  | { type: 'stop' };
export type BuilderActionType = BuilderAction['type'];
export const builderActionTypes: readonly BuilderActionType[] = [
  'move',
  'copy',
  'label',
  'read',
  'flag',
  'forward',
  'reply',
  'reject',
  'delete',
  'stop',
];

export interface BuilderRule {
  match: 'all' | 'any';
  /** No condition at all: every message. */
  conditions: BuilderCondition[];
  actions: BuilderAction[];
}

/** Vacation's `:days` bounds (RFC 5230 asks for at least 1; Pigeonhole caps at its configured maximum). */
export const VACATION_MIN_DAYS = 1;
export const VACATION_MAX_DAYS = 365;

/** What is wrong with a rule before it can be written; `index` is the condition's or action's place. */
export type BuilderProblem =
  | {
      kind: 'value_empty' | 'value_line_break' | 'size_invalid' | 'header_invalid';
      part: 'condition';
      index: number;
    }
  | {
      kind:
        | 'folder_empty'
        | 'label_empty'
        | 'label_spaces'
        | 'address_invalid'
        | 'days_invalid'
        | 'text_empty'
        | 'reason_empty';
      part: 'action';
      index: number;
    }
  | { kind: 'no_actions'; part: 'rule'; index: 0 };

const SIZE = /^\s*(\d+)\s*([KMG])?\s*$/i;
const UNITS = { K: 1024, M: 1024 ** 2, G: 1024 ** 3 } as const;
/** A header field name: printable ASCII without the colon (RFC 5322 §3.6.8). */
const HEADER_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

/** Bytes of a size value ("100K" → 102400), or null when it is not one (or does not fit Sieve's numbers). */
export function sizeBytes(value: string): number | null {
  const m = SIZE.exec(value);
  if (!m) return null;
  const bytes = Number(m[1]) * (m[2] ? UNITS[m[2].toUpperCase() as keyof typeof UNITS] : 1);
  return Number.isSafeInteger(bytes) && bytes <= 2 ** 31 - 1 ? bytes : null;
}

/** The one way the builder writes a size: the largest unit that divides it. */
function sizeText(bytes: number): string {
  for (const unit of ['G', 'M', 'K'] as const) {
    if (bytes !== 0 && bytes % UNITS[unit] === 0) return `${bytes / UNITS[unit]}${unit}`;
  }
  return String(bytes);
}

export function validateBuilderRule(rule: BuilderRule): BuilderProblem[] {
  const problems: BuilderProblem[] = [];
  rule.conditions.forEach((c, index) => {
    if (c.field === 'attachment') return;
    if (c.field === 'header' && !HEADER_NAME.test(c.header ?? ''))
      problems.push({ kind: 'header_invalid', part: 'condition', index });
    if (c.field === 'size') {
      if (sizeBytes(c.value) === null) problems.push({ kind: 'size_invalid', part: 'condition', index });
    } else if (c.value === '') problems.push({ kind: 'value_empty', part: 'condition', index });
    // The test stays on one line, so a switched-off rule (`if false # …`) comments out all of it.
    else if (/[\r\n]/.test(c.value)) problems.push({ kind: 'value_line_break', part: 'condition', index });
  });
  rule.actions.forEach((a, index) => {
    const problem = actionProblem(a);
    if (problem) problems.push({ kind: problem, part: 'action', index });
  });
  if (rule.actions.length === 0) problems.push({ kind: 'no_actions', part: 'rule', index: 0 });
  return problems;
}

function actionProblem(a: BuilderAction): (BuilderProblem & { part: 'action' })['kind'] | null {
  switch (a.type) {
    case 'move':
    case 'copy':
      return a.folder.trim() === '' ? 'folder_empty' : null;
    case 'label':
      if (a.label.trim() === '') return 'label_empty';
      // addflag splits its string at spaces (RFC 5232 §3): "Q1 reports" would be two keywords, neither the label.
      return /\s/.test(a.label) ? 'label_spaces' : null;
    case 'forward':
      return isValidAddress(a.address.trim()) ? null : 'address_invalid';
    case 'reply':
      if (!Number.isInteger(a.days) || a.days < VACATION_MIN_DAYS || a.days > VACATION_MAX_DAYS)
        return 'days_invalid';
      return a.text.trim() === '' ? 'text_empty' : null;
    case 'reject':
      return a.reason.trim() === '' ? 'reason_empty' : null;
    default:
      return null;
  }
}

/** A quoted string (RFC 5228 §2.4.2): only `"` and `\` are escaped; line breaks stay as they are. */
function quote(text: string): string {
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** Escapes the wildcards of `:matches` (RFC 5228 §2.7.1), so "starts with a*b" means the text "a*b". */
function escapeWildcards(text: string): string {
  return text.replace(/[\\*?]/g, (c) => `\\${c}`);
}

/** The wildcard-free text of a `:matches` key, or null when it has an unescaped wildcard. */
function unescapeWildcards(key: string): string | null {
  let text = '';
  for (let i = 0; i < key.length; i++) {
    const c = key[i]!;
    if (c === '*' || c === '?') return null;
    if (c === '\\') {
      const next = key[i + 1];
      if (next === undefined) return null;
      text += next;
      i++;
    } else text += c;
  }
  return text;
}

function matchTag(op: BuilderOp): string {
  switch (op) {
    case 'starts':
    case 'ends':
      return ':matches';
    case 'over':
    case 'under':
      throw new Error(`${op} is a size comparison`);
    default:
      return `:${op}`;
  }
}

function matchKey(op: BuilderOp, value: string): string {
  if (op === 'starts') return `${escapeWildcards(value)}*`;
  if (op === 'ends') return `*${escapeWildcards(value)}`;
  return value;
}

/** Has an attachment: a MIME part marked as one (the raw body holds the parts' own header fields). */
const ATTACHMENT_TEST = 'body :raw :contains "Content-Disposition: attachment"';

function conditionSieve(c: BuilderCondition): string {
  const test = ((): string => {
    if (c.field === 'attachment') return ATTACHMENT_TEST;
    if (c.field === 'size') {
      const bytes = sizeBytes(c.value);
      if (bytes === null) throw new Error(`not a size: ${c.value}`);
      return `size ${c.op === 'under' ? ':under' : ':over'} ${sizeText(bytes)}`;
    }
    const op = c.op === 'over' || c.op === 'under' ? 'contains' : c.op;
    const key = quote(matchKey(op, c.value));
    const tag = matchTag(op);
    switch (c.field) {
      case 'from':
        return `address ${tag} "from" ${key}`;
      case 'to_cc':
        return `address ${tag} ["to","cc"] ${key}`;
      case 'subject':
        return `header ${tag} "subject" ${key}`;
      case 'header':
        return `header ${tag} ${quote(c.header ?? '')} ${key}`;
      case 'body':
        return `body :text ${tag} ${key}`;
    }
  })();
  return c.negate ? `not ${test}` : test;
}

function actionSieve(a: BuilderAction): string {
  switch (a.type) {
    case 'move':
      return `fileinto ${quote(a.folder)};`;
    case 'copy':
      return `fileinto :copy ${quote(a.folder)};`;
    case 'label':
      return `addflag ${quote(a.label)};`;
    case 'read':
      return 'addflag "\\\\Seen";';
    case 'flag':
      return 'addflag "\\\\Flagged";';
    case 'forward':
      return `redirect ${a.keepCopy ? ':copy ' : ''}${quote(a.address.trim())};`;
    case 'reply':
      return `vacation :days ${a.days}${a.subject === '' ? '' : ` :subject ${quote(a.subject)}`} ${quote(a.text)};`;
    case 'reject':
      return `reject ${quote(a.reason)};`;
    case 'delete':
      return 'discard;';
    case 'stop':
      return 'stop;';
  }
}

/**
 * The Sieve text of one rule block, without `require` (see `builderRequires`). Throws on a rule that
 * `validateBuilderRule` refuses.
 */
export function sieveFromBuilder(rule: BuilderRule): string {
  const problems = validateBuilderRule(rule);
  if (problems.length > 0) throw new Error(`the rule cannot be written: ${problems[0]!.kind}`);
  const test =
    rule.conditions.length === 0
      ? 'true'
      : `${rule.match === 'any' ? 'anyof' : 'allof'} (${rule.conditions.map(conditionSieve).join(', ')})`;
  return `if ${test}\n{\n${orderedActions(rule.actions)
    .map((a) => `\t${actionSieve(a)}\n`)
    .join('')}}\n`;
}

const setsFlags = (a: BuilderAction) => a.type === 'label' || a.type === 'read' || a.type === 'flag';

/**
 * The actions in the order they are written: labels, read and flagged first. A `fileinto` files the message with
 * the flags set so far (RFC 5232 §3), so "move to Invoices, mark read" must set the flag before it moves.
 */
export function orderedActions(actions: readonly BuilderAction[]): BuilderAction[] {
  return [...actions.filter(setsFlags), ...actions.filter((a) => !setsFlags(a))];
}

/** The extensions a rule's block uses, for the script's `require`. */
export function builderRequires(rule: BuilderRule): Extension[] {
  const needs = new Set<Extension>();
  for (const c of rule.conditions) {
    if (c.field === 'body' || c.field === 'attachment') needs.add('body');
    if (c.op === 'regex' && c.field !== 'size' && c.field !== 'attachment') needs.add('regex');
  }
  for (const a of rule.actions) {
    if (a.type === 'move' || a.type === 'copy') needs.add('fileinto');
    if (a.type === 'copy' || (a.type === 'forward' && a.keepCopy)) needs.add('copy');
    if (a.type === 'label' || a.type === 'read' || a.type === 'flag') needs.add('imap4flags');
    if (a.type === 'reply') needs.add('vacation');
    if (a.type === 'reject') needs.add('reject');
  }
  return [...needs].sort();
}

// ---- back from Sieve ----------------------------------------------------------------------------------------

class NotBuilt extends Error {}
const fail = (): never => {
  throw new NotBuilt();
};

function strings(arg: Argument | undefined): string[] {
  if (arg?.kind === 'string') return [arg.value];
  if (arg?.kind === 'stringlist') return arg.values.map((v) => v.value);
  return fail();
}

function onlyString(arg: Argument | undefined): string {
  if (arg?.kind !== 'string') fail();
  return (arg as { value: string }).value;
}

function tagOf(arg: Argument | undefined): string {
  if (arg?.kind !== 'tag') fail();
  return (arg as { name: string }).name;
}

/** `:tag "key"` of a comparison → op and value (starts/ends from `:matches` without inner wildcards). */
function opAndValue(tag: string, key: string): { op: BuilderOp; value: string } {
  if (tag === 'contains' || tag === 'is' || tag === 'regex') return { op: tag, value: key };
  if (tag !== 'matches') return fail();
  if (key.length > 1 && key.endsWith('*')) {
    const text = unescapeWildcards(key.slice(0, -1));
    if (text !== null) return { op: 'starts', value: text };
  }
  if (key.length > 1 && key.startsWith('*')) {
    const text = unescapeWildcards(key.slice(1));
    if (text !== null) return { op: 'ends', value: text };
  }
  return { op: 'matches', value: key };
}

function conditionFrom(node: TestNode): BuilderCondition {
  let negate = false;
  if (node.name === 'not') {
    negate = true;
    node = node.tests[0] ?? fail();
  }
  const [a0, a1, a2] = node.args;
  switch (node.name) {
    case 'size': {
      const tag = tagOf(a0);
      if ((tag !== 'over' && tag !== 'under') || a1?.kind !== 'number') return fail();
      return { field: 'size', op: tag, value: sizeText(a1.value), negate };
    }
    case 'address': {
      const headers = strings(a1).map((h) => h.toLowerCase());
      const field = headers.join(',') === 'from' ? 'from' : headers.join(',') === 'to,cc' ? 'to_cc' : fail();
      return { field, ...opAndValue(tagOf(a0), onlyString(a2)), negate };
    }
    case 'header': {
      const header = onlyString(a1);
      const { op, value } = opAndValue(tagOf(a0), onlyString(a2));
      return header.toLowerCase() === 'subject'
        ? { field: 'subject', op, value, negate }
        : { field: 'header', header, op, value, negate };
    }
    case 'body': {
      if (tagOf(a0) === 'raw') return { field: 'attachment', op: 'contains', value: '', negate };
      return { field: 'body', ...opAndValue(tagOf(a1), onlyString(a2)), negate };
    }
    default:
      return fail();
  }
}

function actionFrom(node: CommandNode): BuilderAction {
  const [a0, a1] = node.args;
  switch (node.name) {
    case 'fileinto':
      return a0?.kind === 'tag' && a0.name === 'copy'
        ? { type: 'copy', folder: onlyString(a1) }
        : { type: 'move', folder: onlyString(a0) };
    case 'addflag': {
      const flag = onlyString(a0);
      if (flag === '\\Seen') return { type: 'read' };
      if (flag === '\\Flagged') return { type: 'flag' };
      return { type: 'label', label: flag };
    }
    case 'redirect':
      return a0?.kind === 'tag'
        ? { type: 'forward', address: onlyString(a1), keepCopy: true }
        : { type: 'forward', address: onlyString(a0), keepCopy: false };
    case 'vacation': {
      let days = 0;
      let subject = '';
      let text = '';
      for (let i = 0; i < node.args.length; i++) {
        const arg = node.args[i]!;
        if (arg.kind === 'tag' && arg.name === 'days') {
          const n = node.args[++i];
          days = n?.kind === 'number' ? n.value : fail();
        } else if (arg.kind === 'tag' && arg.name === 'subject') subject = onlyString(node.args[++i]);
        else if (arg.kind === 'string') text = arg.value;
        else fail();
      }
      return { type: 'reply', subject, text, days };
    }
    case 'reject':
      return { type: 'reject', reason: onlyString(a0) };
    case 'discard':
      return { type: 'delete' };
    case 'stop':
      return { type: 'stop' };
    default:
      return fail();
  }
}

function ruleFrom(commands: CommandNode[]): BuilderRule {
  if (commands.length !== 1) fail();
  const command = commands[0]!;
  if (command.name !== 'if' || command.args.length > 0 || command.tests.length !== 1 || !command.block)
    fail();
  const test = command.tests[0]!;
  const actions = command.block!.map((c) => (c.block ? fail() : actionFrom(c)));
  if (test.name === 'true' && test.args.length === 0) return { match: 'all', conditions: [], actions };
  if ((test.name !== 'allof' && test.name !== 'anyof') || !test.testList) fail();
  return { match: test.name === 'anyof' ? 'any' : 'all', conditions: test.tests.map(conditionFrom), actions };
}

/** Whitespace runs as one space: a block stored with other line breaks or indentation still reads as the builder's. */
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function sameTokens(a: Token[], b: Token[]): boolean {
  return (
    a.length === b.length &&
    a.every((t, i) => {
      const u = b[i]!;
      return t.type === u.type && ('value' in t ? 'value' in u && t.value === u.value : true);
    })
  );
}

/**
 * The rule a block holds when the builder wrote it, or null for anything else (another form, a comment, a
 * command or test the builder does not offer): such a rule opens in the raw editor instead of being rewritten.
 */
export function builderFromSieve(text: string): BuilderRule | null {
  let rule: BuilderRule;
  try {
    rule = ruleFrom(parse(text));
    if (validateBuilderRule(rule).length > 0) return null;
    const written = sieveFromBuilder(rule);
    // The builder's own text, up to whitespace: no comment, no other spelling of the same thing.
    if (collapse(written) !== collapse(text) || !sameTokens(tokenize(written), tokenize(text))) return null;
  } catch (err) {
    if (err instanceof NotBuilt || err instanceof SieveSyntaxError) return null;
    throw err;
  }
  return rule;
}
