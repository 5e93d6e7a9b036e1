import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb } from './_util.js';
import { searchTokens, searchVectorText, type SearchSource } from '../src/mail/search-vector.js';
import type { MailAddress } from '../src/db/schema.js';

const db = await createTestDb();

const words = (text: string) => searchTokens(text).join(' ');
const addressText = (list: MailAddress[]) => list.map((a) => `${a.name} ${a.email}`).join(' ');

/** What the index held before the vector was built in JavaScript: PostgreSQL's own to_tsvector. */
async function builtByPostgres(source: SearchSource): Promise<string> {
  const { rows } = await sql<{ v: string }>`select (
      setweight(to_tsvector('simple', ${words(source.subject)}), 'A')
      || setweight(to_tsvector('simple', ${words(addressText(source.from))}), 'B')
      || setweight(to_tsvector('simple', ${words(addressText(source.to))}), 'C')
      || to_tsvector('simple', ${words(source.body)}))::text as v`.execute(db);
  return rows[0]!.v;
}

async function builtHere(source: SearchSource): Promise<string> {
  const { rows } = await sql<{
    v: string;
  }>`select (${searchVectorText(source)}::tsvector)::text as v`.execute(db);
  return rows[0]!.v;
}

const message = (over: Partial<SearchSource>): SearchSource => ({
  subject: 'Re: Платёж за ноябрь — invoice 2026/11',
  from: [{ name: 'Bob Smith', email: 'bob.smith@example.com' }],
  to: [
    { name: 'Ann', email: 'ann@mailroom.test' },
    { name: '', email: 'accounts@example.org' },
  ],
  body: 'Все платежи проведены, счёт закрыт. Thank you for the payment of 20 EUR; order #8841. Crème brûlée, straße, 你好, हिन्दी.',
  ...over,
});

describe('the stored search vector', () => {
  it('is the one PostgreSQL builds from the same words: lexemes, positions and field weights', async () => {
    for (const source of [
      message({}),
      // A word in several fields keeps its positions (and weights) from each.
      message({ subject: 'payment payment', body: 'payment bob payment ann' }),
      message({ subject: '', from: [], to: [], body: '' }),
      message({ subject: '', from: [], body: 'only a body' }),
    ]) {
      expect(await builtHere(source)).toBe(await builtByPostgres(source));
    }
  });

  it('keeps PostgreSQL limits on long mail: 256 positions a word, positions capped at 16383', async () => {
    const many = (word: string, n: number) => Array.from({ length: n }, () => word).join(' ');
    for (const source of [
      message({ body: many('again', 400) }),
      message({ subject: many('subj', 300), body: many('again', 300) }),
      message({ body: Array.from({ length: 17_000 }, (_, i) => `w${i % 5000}`).join(' ') + ' tail tail' }),
      message({ subject: many('s', 20), body: `${many('x', 16_390)} late words` }),
    ]) {
      expect(await builtHere(source)).toBe(await builtByPostgres(source));
    }
  });
});
