import { sql, type RawBuilder } from 'kysely';
import type { MailAddress } from '../core/db/index.js';

/**
 * How mail text becomes searchable, in one place for the index (storeMessage, migration 010) and
 * the query (search.query.ts): both sides fold and split text the same way in JavaScript and hand
 * PostgreSQL the words themselves (tsvector and tsquery text), so a query token is exactly an index
 * lexeme.
 *
 * Folding: lower case, compatibility forms unified, accents dropped (é → e, ü → u) and ё → е
 * (Russian writes both for one word), but the breve kept so й stays й. Splitting: runs of letters
 * and digits; everything else separates words (an address becomes its parts, so a part matches).
 * Matching is by prefix (`платеж` finds `платежи`, `pay` finds `payments`), which covers the
 * common inflections of both languages without a stemmer guessing the language of each message.
 */
export function foldText(text: string): string {
  // Lower case first: it can itself produce combining marks (İ → i̇) that the next step drops.
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u0305\u0307-\u036f]/g, '')
    .normalize('NFC')
    .replace(/ё/g, 'е');
}

const MAX_TOKEN = 100;

const wordChar = /[\p{L}\p{M}\p{N}]/u;
/** Per BMP code unit: 0 not looked up yet, 1 part of a word, 2 a separator. */
const bmpClass = new Uint8Array(0x10000);

function isWordChar(code: number): boolean {
  if (code < 0x80) {
    return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a);
  }
  if (code > 0xffff) return wordChar.test(String.fromCodePoint(code));
  let c = bmpClass[code]!;
  if (c === 0) bmpClass[code] = c = wordChar.test(String.fromCharCode(code)) ? 1 : 2;
  return c === 1;
}

/**
 * The words of a text after folding; what the index stores and what a query looks for. Words are
 * runs of letters, marks and digits (`[\p{L}\p{M}\p{N}]+`), found by a loop over code points with a
 * cached class per character: the Unicode-property regular expression took ~0.3 ms of a 10 KB body.
 */
export function searchTokens(text: string): string[] {
  const folded = foldText(text);
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i < folded.length;) {
    const code = folded.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    if (isWordChar(code)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      tokens.push(folded.slice(start, Math.min(i, start + MAX_TOKEN)));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) tokens.push(folded.slice(start, Math.min(folded.length, start + MAX_TOKEN)));
  return tokens;
}

/**
 * Each field's words live in the vector under their own prefix (`s:платежи`, `b:payment`), so a
 * query names the fields it looks in by lexeme alone. Field weights (the vector before migration
 * 010) made PostgreSQL recheck every GIN match against the stored vector, which for a frequent
 * word was most of a search's time (count of 6,386 matches on 100k messages: 49 -> 12 ms on
 * PGlite); prefixed lexemes are decided by the index alone. A token is only letters, marks and
 * digits, so the `:` after the one-letter prefix can never be part of a word.
 */
export const searchFieldPrefix = { subject: 's', from: 'f', to: 't', body: 'b' } as const;
export type SearchField = keyof typeof searchFieldPrefix;

export interface SearchSource {
  subject: string;
  from: MailAddress[];
  to: MailAddress[];
  body: string;
}

/** Text the index sees of a body: long bodies are cut so one message cannot bloat the index. */
const BODY_LIMIT = 200_000;

const addressText = (list: MailAddress[]) =>
  list
    .slice(0, 100)
    .map((a) => `${a.name} ${a.email}`)
    .join(' ');

/** Tokens are letters, marks and digits only; escaped anyway, as tsvector and tsquery text want. */
const quoted = (lexeme: string) => `'${lexeme.replace(/['\\]/g, '\\$&')}'`;

/**
 * The text form of a message's tsvector: every distinct word of each field once, under the
 * field's prefix. No positions: nothing ranks or searches phrases, and without them the vector is
 * smaller (less often TOASTed) and quicker to build.
 */
export function searchVectorText(source: SearchSource): string {
  const fields: [string, SearchField][] = [
    [source.subject, 'subject'],
    [addressText(source.from), 'from'],
    [addressText(source.to), 'to'],
    [source.body.slice(0, BODY_LIMIT), 'body'],
  ];
  const lexemes = new Set<string>();
  for (const [text, field] of fields) {
    const prefix = `${searchFieldPrefix[field]}:`;
    for (const token of searchTokens(text)) lexemes.add(prefix + token);
  }
  return [...lexemes].map(quoted).join(' ');
}

/** The SQL value of `message_contents.search_vector` for a message. */
export function searchVectorSql(source: SearchSource): RawBuilder<unknown> {
  return sql`${searchVectorText(source)}::tsvector`;
}

const MAX_QUERY_TOKENS = 16;

/**
 * A tsquery text for "every word of `input`, by prefix, in any of these fields", or null when the
 * input has no words. Tokens are only letters and digits, so they can never carry tsquery syntax
 * (quotes, `&`, `!`, `:`); user text never reaches a tsquery any other way.
 */
export function prefixQuery(input: string, fields: readonly SearchField[]): string | null {
  const tokens = [...new Set(searchTokens(input))].slice(0, MAX_QUERY_TOKENS);
  if (!tokens.length || !fields.length) return null;
  const prefixes = fields.map((f) => `${searchFieldPrefix[f]}:`);
  return tokens
    .map((t) => {
      const any = prefixes.map((p) => `${quoted(p + t)}:*`);
      return any.length > 1 ? `(${any.join(' | ')})` : any[0]!;
    })
    .join(' & ');
}
