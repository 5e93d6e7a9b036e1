import { describe, expect, it } from 'vitest';
import { foldText, searchTokens } from './search-vector.js';

/** The rule as first written: runs of letters, marks and digits after folding, cut at 100. */
const byRegex = (text: string) =>
  foldText(text)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .map((t) => t.slice(0, 100));

describe('search words', () => {
  it('are the runs of letters, marks and digits of any script, cut at 100 characters', () => {
    expect(searchTokens('Счёт №8841: Crème brûlée, x² — 你好 😀 हिन्दी\u0482ok')).toEqual(
      byRegex('Счёт №8841: Crème brûlée, x² — 你好 😀 हिन्दी\u0482ok'),
    );
    const pool = [
      'a',
      'Z',
      '9',
      ' ',
      '.',
      'é',
      'ё',
      'Й',
      '\u0301',
      '²',
      '你',
      '😀',
      '𝐀',
      '\ud800',
      '\u0482',
      '-',
      'ß',
      'İ',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: next() % 300 }, () => pool[next() % pool.length]).join('');
      expect(searchTokens(text)).toEqual(byRegex(text));
    }
    expect(searchTokens('w'.repeat(250))).toEqual(['w'.repeat(100)]);
  });
});
