import { sql, type RawBuilder } from 'kysely';
import type { MailAddress } from '../db/schema.js';

/**
 * How mail text becomes searchable, in one place for the index (storeMessage, migration 007) and
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

/** Field weights in the vector, so a query can look in one field: `subject` only is `:*A`. */
export const searchWeights = { subject: 'A', from: 'B', to: 'C', body: 'D' } as const;
export type SearchField = keyof typeof searchWeights;

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

// PostgreSQL's tsvector limits: positions stop at 16383, a lexeme keeps at most 256 of them.
const MAX_POSITION = 16383;
const MAX_POSITIONS = 256;

/**
 * The text form of a message's tsvector, built from the tokens above: what
 * `setweight(to_tsvector('simple', subject words), 'A') || … 'B' || … 'C' || to_tsvector('simple',
 * body words)` gives, lexeme for lexeme and position for position (each field numbers its words
 * from 1, shifted past the fields before it; the same caps), without PostgreSQL parsing the words
 * again, which cost it about 1 ms of a 10 KB body per message on ingest.
 */
export function searchVectorText(source: SearchSource): string {
  const fields: [string, string][] = [
    [source.subject, searchWeights.subject],
    [addressText(source.from), searchWeights.from],
    [addressText(source.to), searchWeights.to],
    [source.body.slice(0, BODY_LIMIT), ''],
  ];
  // Per lexeme: its positions as tsvector text, how many, and the last one.
  const vector = new Map<string, { text: string; count: number; last: number }>();
  let shift = 0;
  for (const [text, weight] of fields) {
    // to_tsvector: word n is at position n (capped); a lexeme keeps its first 255 distinct positions.
    const field = new Map<string, number[]>();
    let position = 0;
    for (const token of searchTokens(text)) {
      const at = Math.min(++position, MAX_POSITION);
      const positions = field.get(token);
      if (!positions) field.set(token, [at]);
      else if (positions.length < MAX_POSITIONS - 1 && positions[positions.length - 1] !== at)
        positions.push(at);
    }
    // ||: the right side's positions move past the left side's last one, up to 256 per lexeme.
    let last = shift;
    for (const [token, positions] of field) {
      let entry = vector.get(token);
      if (!entry) vector.set(token, (entry = { text: '', count: 0, last: 0 }));
      for (const p of positions) {
        if (entry.count >= MAX_POSITIONS || entry.last === MAX_POSITION) break;
        entry.last = Math.min(p + shift, MAX_POSITION);
        entry.text += entry.count++ ? `,${entry.last}${weight}` : `${entry.last}${weight}`;
      }
      if (entry.last > last) last = entry.last;
    }
    shift = last;
  }
  let out = '';
  for (const [token, entry] of vector) {
    out += `${out ? ' ' : ''}'${token.replace(/['\\]/g, '\\$&')}':${entry.text}`;
  }
  return out;
}

/** The SQL value of `message_contents.search_vector` for a message. */
export function searchVectorSql(source: SearchSource): RawBuilder<unknown> {
  return sql`${searchVectorText(source)}::tsvector`;
}

const MAX_QUERY_TOKENS = 16;

/**
 * A tsquery text for "every word of `input`, by prefix, in these fields", or null when the input
 * has no words. Tokens are only letters and digits, so they can never carry tsquery syntax
 * (quotes, `&`, `!`, `:`); user text never reaches a tsquery any other way.
 */
export function prefixQuery(input: string, fields: readonly SearchField[]): string | null {
  const tokens = [...new Set(searchTokens(input))].slice(0, MAX_QUERY_TOKENS);
  if (!tokens.length) return null;
  const weights = fields.map((f) => searchWeights[f]).join('');
  return tokens.map((t) => `'${t}':*${weights}`).join(' & ');
}
