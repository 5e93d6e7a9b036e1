import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../_util.js';
import {
  prefixQuery,
  searchVectorText,
  type SearchField,
  type SearchSource,
} from '../../src/mailbox/search-vector.js';

const db = await createTestDb();

/** The vector as PostgreSQL stores it (its own text form: lexemes sorted, duplicates merged). */
async function stored(source: SearchSource): Promise<string> {
  const { rows } = await sql<{
    v: string;
  }>`select (${searchVectorText(source)}::tsvector)::text as v`.execute(db);
  return rows[0]!.v;
}

/** Whether a search for `input` in `fields` finds the message, asked of PostgreSQL itself. */
async function finds(source: SearchSource, input: string, fields: SearchField[]): Promise<boolean> {
  const query = prefixQuery(input, fields);
  if (!query) return false;
  const { rows } = await sql<{
    hit: boolean;
  }>`select ${searchVectorText(source)}::tsvector @@ ${query}::tsquery as hit`.execute(db);
  return rows[0]!.hit;
}

const message = (over: Partial<SearchSource>): SearchSource => ({
  subject: 'Re: Платёж за ноябрь — invoice 2026/11',
  from: [{ name: 'Bob Smith', email: 'bob.smith@example.com' }],
  to: [
    { name: 'Ann', email: 'ann@mailroom.test' },
    { name: '', email: 'accounts@example.org' },
  ],
  body: 'Все платежи проведены, счёт закрыт. Thank you for the payment of 20 EUR; order #8841. Crème brûlée.',
  ...over,
});

describe('the stored search vector', () => {
  it("holds each field's distinct folded words once, under the field's prefix", async () => {
    const source = message({
      subject: 'Payment PAYMENT',
      from: [{ name: 'Bob', email: 'bob@ex.com' }],
      to: [{ name: '', email: 'ann@ex.com' }],
      body: 'payment bob, Crème',
    });
    expect(await stored(source)).toBe(
      "'b:bob' 'b:creme' 'b:payment' 'f:bob' 'f:com' 'f:ex' 's:payment' 't:ann' 't:com' 't:ex'",
    );
    expect(await stored(message({ subject: '', from: [], to: [], body: '' }))).toBe('');
  });

  it('finds a word by prefix only in the fields asked for', async () => {
    const source = message({});
    expect(await finds(source, 'платеж', ['subject'])).toBe(true);
    expect(await finds(source, 'платежи', ['subject'])).toBe(false);
    expect(await finds(source, 'платежи', ['body'])).toBe(true);
    expect(await finds(source, 'smi', ['from'])).toBe(true);
    expect(await finds(source, 'smith', ['subject', 'body'])).toBe(false);
    // Recipients are their own field: the text search (subject, sender, body) does not see them.
    expect(await finds(source, 'accounts', ['to'])).toBe(true);
    expect(await finds(source, 'accounts', ['subject', 'from', 'body'])).toBe(false);
    // Every word must match, each in any of the fields.
    expect(await finds(source, 'invoice thank bob', ['subject', 'from', 'body'])).toBe(true);
    expect(await finds(source, 'invoice ann', ['subject', 'from', 'body'])).toBe(false);
  });

  it('keeps a word of long mail however often it occurs, and stops reading a body at 200,000 characters', async () => {
    const many = (word: string, n: number) => Array.from({ length: n }, () => word).join(' ');
    const long = message({ body: `${many('again', 20_000)} late ${'x'.repeat(200_000)} beyond` });
    expect(await finds(long, 'again', ['body'])).toBe(true);
    expect(await finds(long, 'late', ['body'])).toBe(true);
    expect(await finds(long, 'beyond', ['body'])).toBe(false);
  });
});
