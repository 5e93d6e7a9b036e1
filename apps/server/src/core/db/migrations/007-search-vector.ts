import { sql, type RawBuilder } from 'kysely';

/**
 * The search vector as migration 007 built it (field weights), frozen here: a migration never
 * changes after it ships, so it carries its own copy instead of importing the live one
 * (mailbox/search-vector.ts), which has moved on since (migration 010).
 */

interface Address {
  name: string;
  email: string;
}

export interface SearchSource007 {
  subject: string;
  from: Address[];
  to: Address[];
  body: string;
}

/** Lower case, compatibility forms unified, accents dropped but the breve kept (й), ё → е. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u0305\u0307-\u036f]/g, '')
    .normalize('NFC')
    .replace(/ё/g, 'е');
}

const MAX_TOKEN = 100;

/** Runs of letters, marks and digits of the folded text, each cut to 100 characters. */
export function searchTokens(text: string): string[] {
  return foldText(text)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .map((t) => t.slice(0, MAX_TOKEN));
}

export const BODY_LIMIT = 200_000;

export const addressText = (list: Address[]) =>
  list
    .slice(0, 100)
    .map((a) => `${a.name} ${a.email}`)
    .join(' ');

const wordsOf = (text: string) => searchTokens(text).join(' ');

export function searchVectorSql007(source: SearchSource007): RawBuilder<unknown> {
  return sql`setweight(to_tsvector('simple', ${wordsOf(source.subject)}), 'A')
    || setweight(to_tsvector('simple', ${wordsOf(addressText(source.from))}), 'B')
    || setweight(to_tsvector('simple', ${wordsOf(addressText(source.to))}), 'C')
    || to_tsvector('simple', ${wordsOf(source.body.slice(0, BODY_LIMIT))})`;
}
