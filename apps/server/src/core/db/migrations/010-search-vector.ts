import { addressText, BODY_LIMIT, searchTokens, type SearchSource007 } from './007-search-vector.js';

/**
 * The search vector as migration 010 built it (each field's words under its own prefix), frozen
 * here with the words of 007's copy (the folding and splitting did not change between them).
 */
const prefix = { subject: 's', from: 'f', to: 't', body: 'b' } as const;

const quoted = (lexeme: string) => `'${lexeme.replace(/['\\]/g, '\\$&')}'`;

export function searchVectorText010(source: SearchSource007): string {
  const fields: [string, keyof typeof prefix][] = [
    [source.subject, 'subject'],
    [addressText(source.from), 'from'],
    [addressText(source.to), 'to'],
    [source.body.slice(0, BODY_LIMIT), 'body'],
  ];
  const lexemes = new Set<string>();
  for (const [text, field] of fields) {
    for (const token of searchTokens(text)) lexemes.add(`${prefix[field]}:${token}`);
  }
  return [...lexemes].map(quoted).join(' ');
}
