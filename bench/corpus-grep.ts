/**
 * What a search should find, counted from the corpus itself rather than asked of the server (#13: the hit counts
 * beside the times must equal what a grep of the corpus finds for the word rule we implement). Each message is
 * decoded with mailparser (as ingest does: the subject, the sender's name and address, the text body, which for an
 * HTML-only message is mailparser's text of the HTML), then matched with regular expressions written from the rule
 * as the product states it (apps/server/src/mailbox/search-vector.ts), not with the product's tokenizer:
 *   - text is folded: lower case, accents dropped but the breve kept (й), ё → е;
 *   - each word of the query must begin a word (a run of letters, marks, digits) in one of the fields searched;
 *   - a search that includes the sender also matches when the query is a piece of the sender's address (≥ 3 chars).
 * Counts are cached beside the corpus, keyed by the query.
 */
import { createReadStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';

export type GrepField = 'subject' | 'from' | 'body';
export interface GrepQuery {
  text: string;
  fields: GrepField[];
  /** Whether a piece of the sender's address matches too (a search that names the sender field). */
  addressPiece: boolean;
}

const fold = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u0305\u0307-\u036f]/g, '')
    .normalize('NFC')
    .replace(/ё/g, 'е');

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matcher(
  query: GrepQuery,
): (m: { subject: string; from: string; fromEmail: string; body: string }) => boolean {
  const words = [...new Set(fold(query.text).match(/[\p{L}\p{M}\p{N}]+/gu) ?? [])];
  const patterns = words.map((w) => new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escape(w)}`, 'u'));
  const piece = query.addressPiece && query.text.trim().length >= 3 ? query.text.trim().toLowerCase() : null;
  return (m) => {
    if (piece !== null && m.fromEmail.includes(piece)) return true;
    if (!words.length) return false;
    const texts = query.fields.map((f) => m[f]);
    return patterns.every((p) => texts.some((t) => p.test(t)));
  };
}

export async function grepHits(dir: string, files: string[], queries: GrepQuery[]): Promise<number[]> {
  const cacheFile = path.join(dir, 'grep-hits.json');
  const cache = existsSync(cacheFile)
    ? (JSON.parse(await fs.readFile(cacheFile, 'utf8')) as Record<string, number>)
    : {};
  const key = (q: GrepQuery) => `${files.length}:${JSON.stringify(q)}`;
  const missing = queries.filter((q) => cache[key(q)] === undefined);
  if (missing.length) {
    const tests = missing.map(matcher);
    const counts = missing.map(() => 0);
    for (const file of files) {
      const mail = await simpleParser(createReadStream(file), { skipTextToHtml: true, skipImageLinks: true });
      const from = mail.from?.value ?? [];
      const m = {
        subject: fold(mail.subject ?? ''),
        from: fold(from.map((a) => `${a.name ?? ''} ${a.address ?? ''}`).join(' ')),
        fromEmail: (from[0]?.address ?? '').toLowerCase(),
        body: fold(mail.text ?? ''),
      };
      tests.forEach((test, i) => {
        if (test(m)) counts[i]!++;
      });
    }
    missing.forEach((q, i) => (cache[key(q)] = counts[i]!));
    await fs.writeFile(cacheFile, JSON.stringify(cache, null, 1));
  }
  return queries.map((q) => cache[key(q)]!);
}
