import { SieveSyntaxError, type Position } from './errors.js';

/** RFC 5228 §8.1 lexical tokens. */
export type Token =
  | { type: 'identifier'; value: string; pos: Position }
  | { type: 'tag'; value: string; pos: Position }
  | { type: 'number'; value: number; pos: Position }
  | { type: 'string'; value: string; pos: Position }
  | { type: '[' | ']' | '(' | ')' | '{' | '}' | ',' | ';' | 'eof'; pos: Position };

const quantifiers: Record<string, number> = { K: 1024, M: 1024 ** 2, G: 1024 ** 3 };
/** Numbers are 32-bit unsigned in Pigeonhole; a larger literal is an error rather than silently wrapped. */
const maxNumber = 2 ** 31 - 1;

function isIdentStart(c: string) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
}
function isIdentChar(c: string) {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
function isDigit(c: string) {
  return c >= '0' && c <= '9';
}

/** Splits a script into tokens; every error names its line and column. */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const pos = (): Position => ({ line, column: i - lineStart + 1 });
  const fail = (message: string, at: Position = pos()): never => {
    throw new SieveSyntaxError(message, at);
  };
  const newline = () => {
    line++;
    lineStart = i;
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      i++;
      newline();
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const start = pos();
      i += 2;
      for (;;) {
        if (i >= source.length) fail('unterminated comment', start);
        if (source[i] === '*' && source[i + 1] === '/') {
          i += 2;
          break;
        }
        if (source[i] === '\n') {
          i++;
          newline();
        } else i++;
      }
      continue;
    }
    const start = pos();
    if ('[](){},;'.includes(c)) {
      tokens.push({ type: c as '[', pos: start });
      i++;
      continue;
    }
    if (c === '"') {
      i++;
      let value = '';
      for (;;) {
        if (i >= source.length) fail('unterminated string', start);
        const ch = source[i]!;
        if (ch === '"') {
          i++;
          break;
        }
        if (ch === '\\') {
          const next = source[i + 1];
          if (next === undefined) fail('unterminated string', start);
          // RFC 5228 §2.4.2: "\\" and "\"" are escapes; any other backslash is dropped.
          value += next;
          i += 2;
          if (next === '\n') newline();
          continue;
        }
        value += ch;
        i++;
        if (ch === '\n') newline();
      }
      tokens.push({ type: 'string', value, pos: start });
      continue;
    }
    if (c === ':') {
      i++;
      if (!isIdentStart(source[i] ?? '')) fail('a tag needs a name after ":"', start);
      const from = i;
      while (i < source.length && isIdentChar(source[i]!)) i++;
      tokens.push({ type: 'tag', value: source.slice(from, i).toLowerCase(), pos: start });
      continue;
    }
    if (isDigit(c)) {
      const from = i;
      while (i < source.length && isDigit(source[i]!)) i++;
      let value = Number(source.slice(from, i));
      const q = source[i]?.toUpperCase();
      if (q && quantifiers[q]) {
        value *= quantifiers[q];
        i++;
      }
      if (i < source.length && isIdentChar(source[i]!)) fail('a number runs into a word', start);
      if (value > maxNumber) fail('the number is too large', start);
      tokens.push({ type: 'number', value, pos: start });
      continue;
    }
    if (isIdentStart(c)) {
      const from = i;
      while (i < source.length && isIdentChar(source[i]!)) i++;
      const word = source.slice(from, i);
      if (word.toLowerCase() === 'text' && source[i] === ':') {
        i++;
        tokens.push({ type: 'string', value: readMultiline(), pos: start });
        continue;
      }
      tokens.push({ type: 'identifier', value: word.toLowerCase(), pos: start });
      continue;
    }
    fail(`unexpected character ${JSON.stringify(c)}`);
  }
  tokens.push({ type: 'eof', pos: pos() });
  return tokens;

  /** `text:` then spaces or a comment to the end of the line, lines up to a lone ".", dot-stuffing undone. */
  function readMultiline(): string {
    const start = pos();
    while (source[i] === ' ' || source[i] === '\t') i++;
    if (source[i] === '#') while (i < source.length && source[i] !== '\n') i++;
    if (source[i] === '\r') i++;
    if (source[i] !== '\n') fail('text: must be followed by the end of the line', start);
    i++;
    newline();
    let value = '';
    for (;;) {
      if (i >= source.length) fail('unterminated multi-line string', start);
      let end = source.indexOf('\n', i);
      if (end < 0) end = source.length;
      let text = source.slice(i, end);
      if (text.endsWith('\r')) text = text.slice(0, -1);
      i = Math.min(end + 1, source.length);
      if (end < source.length) newline();
      if (text === '.') return value;
      value += (text.startsWith('.') ? text.slice(1) : text) + '\r\n';
      if (end >= source.length) fail('unterminated multi-line string', start);
    }
  }
}
