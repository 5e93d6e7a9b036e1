import { describe, expect, it } from 'vitest';
import { errorCodes } from '@mailroom/protocol';
import en from './locales/en.json';
import ru from './locales/ru.json';
import errorsEn from './locales/errors.en.json';
import errorsRu from './locales/errors.ru.json';
import featuresEn from './locales/features.en.json';
import featuresRu from './locales/features.ru.json';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') result.set(path, value);
    else for (const [child, text] of leaves(value, path)) result.set(child, text);
  }
  return result;
}

function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!).sort();
}

describe.each([
  ['interface', en as Tree, ru as Tree],
  ['on-demand feature', featuresEn as Tree, featuresRu as Tree],
  ['errors', errorsEn as Tree, errorsRu as Tree],
])('%s translations', (_name, english, russian) => {
  const enLeaves = leaves(english);
  const ruLeaves = leaves(russian);

  it('have the same keys in English and Russian', () => {
    expect([...ruLeaves.keys()].sort()).toEqual([...enLeaves.keys()].sort());
  });

  it('have no empty text in either language', () => {
    const empty = [...enLeaves, ...ruLeaves].filter(([, text]) => text.trim() === '').map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('use the same placeholders in both languages', () => {
    for (const [key, text] of enLeaves) {
      expect(variables(ruLeaves.get(key) ?? ''), key).toEqual(variables(text));
    }
  });

  it('leave no English product words in the Russian texts (Member ID is ID участника)', () => {
    const english = [...ruLeaves].filter(([, text]) => /member id|bytes?\b/i.test(text)).map(([key]) => key);
    expect(english).toEqual([]);
  });
});

describe('on-demand feature texts', () => {
  // A section may be split (the shell's 'mail' texts, the reader's in the on-demand file), a key may not.
  it('never repeat a key of the shell texts, so no key has two meanings', () => {
    for (const [shell, features] of [
      [en, featuresEn],
      [ru, featuresRu],
    ] as const) {
      const shellKeys = leaves(shell as Tree);
      const shared = [...leaves(features as Tree).keys()].filter((key) => shellKeys.has(key));
      expect(shared).toEqual([]);
    }
  });
});

describe('error catalogue', () => {
  it.each([
    ['English', errorsEn as Record<string, string>],
    ['Russian', errorsRu as Record<string, string>],
  ])('translates every registered error code into %s', (_language, catalogue) => {
    const missing = errorCodes.filter((code) => !catalogue[code]?.trim());
    expect(missing).toEqual([]);
  });
});
