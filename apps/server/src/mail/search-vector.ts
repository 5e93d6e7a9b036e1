import { sql, type RawBuilder } from 'kysely';
import type { MailAddress } from '../db/schema.js';

/**
 * How mail text becomes searchable, in one place for the index (storeMessage, migration 007) and
 * the query (search.query.ts): both sides fold and split text the same way in JavaScript, so what
 * PostgreSQL's `simple` parser sees are plain words and a query token is exactly an index lexeme.
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

/** The words of a text after folding; what the index stores and what a query looks for. */
export function searchTokens(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .map((t) => t.slice(0, MAX_TOKEN));
}

const wordsOf = (text: string) => searchTokens(text).join(' ');

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

/** The SQL value of `message_contents.search_vector` for a message. */
export function searchVectorSql(source: SearchSource): RawBuilder<unknown> {
  return sql`setweight(to_tsvector('simple', ${wordsOf(source.subject)}), 'A')
    || setweight(to_tsvector('simple', ${wordsOf(addressText(source.from))}), 'B')
    || setweight(to_tsvector('simple', ${wordsOf(addressText(source.to))}), 'C')
    || to_tsvector('simple', ${wordsOf(source.body.slice(0, BODY_LIMIT))})`;
}

const MAX_QUERY_TOKENS = 16;

/**
 * A tsquery text for "every word of `input`, by prefix, in these fields", or null when the input
 * has no words. Tokens are only letters and digits, so they can never carry tsquery syntax
 * (quotes, `&`, `!`, `:`); user text never reaches to_tsquery any other way.
 */
export function prefixQuery(input: string, fields: readonly SearchField[]): string | null {
  const tokens = [...new Set(searchTokens(input))].slice(0, MAX_QUERY_TOKENS);
  if (!tokens.length) return null;
  const weights = fields.map((f) => searchWeights[f]).join('');
  return tokens.map((t) => `'${t}':*${weights}`).join(' & ');
}
