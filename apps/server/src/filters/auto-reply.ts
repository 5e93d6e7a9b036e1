import type { HeaderField } from '@mailroom/sieve';

/**
 * Whether a vacation reply may answer a message (RFC 5230 §4.5–4.6, and what Pigeonhole refuses): never to the null
 * sender, a mailer daemon or a list owner, nor to mail that is itself automatic (Auto-Submitted other than "no"),
 * bulk (Precedence bulk, junk or list) or from a list (any List-* field), nor to mail that does not name one of
 * `ownAddresses` (the recipient's, and the script's :addresses) in To, Cc, Bcc or their Resent- forms (it came by
 * Bcc or a list). Returns why not, or null. Pure.
 */
export function autoReplyRefusal(
  headers: readonly HeaderField[],
  envelopeFrom: string,
  ownAddresses: readonly string[] = [],
): string | null {
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
  if (ownAddresses.length) {
    const own = ownAddresses.map((a) => a.toLowerCase());
    const named = headers
      .filter((h) => /^(resent-)?(to|cc|bcc)$/i.test(h.name))
      .some((h) => own.some((a) => h.value.toLowerCase().includes(a)));
    if (!named) return 'not addressed to this mailbox';
  }
  return null;
}
