import type { HeaderField } from '@mailroom/sieve';

/**
 * Whether a vacation reply may answer a message (RFC 5230 §4.6, and what Pigeonhole refuses): never to the null
 * sender, a mailer daemon or a list owner, nor to mail that is itself automatic (Auto-Submitted other than "no"),
 * bulk (Precedence bulk, junk or list) or from a list (any List-* field). Returns why not, or null. Pure.
 */
export function autoReplyRefusal(headers: readonly HeaderField[], envelopeFrom: string): string | null {
  if (!envelopeFrom) return 'the null sender';
  const local = envelopeFrom.slice(0, envelopeFrom.lastIndexOf('@')).toLowerCase();
  if (local === 'mailer-daemon' || local.startsWith('owner-') || local.endsWith('-request'))
    return 'a mailer daemon or list address';
  for (const { name, value } of headers) {
    const field = name.toLowerCase();
    const v = value.trim().toLowerCase();
    if (field === 'auto-submitted' && v.split(';')[0]!.trim() !== 'no') return 'an automatic message';
    if (field === 'precedence' && ['bulk', 'junk', 'list'].includes(v)) return 'bulk mail';
    if (field.startsWith('list-')) return 'list mail';
  }
  return null;
}
