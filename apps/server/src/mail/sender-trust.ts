import { domainToASCII, domainToUnicode } from 'node:url';
import type { MailAddress, SenderTrust } from '@mailroom/protocol';
import { fromDomainProved, type MessageVerdict } from '../mailbox/index.js';

/**
 * Letters that look alike, folded to one: Cyrillic and Greek homographs of Latin letters, and the digit and letter
 * swaps phishing uses (`rn`→`m`, `vv`→`w`, `1`/`I`→`l`, `0`→`o`). Two domains with the same skeleton look the same.
 */
const confusables: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'l',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  к: 'k',
  м: 'm',
  т: 't',
  в: 'b',
  н: 'h',
  ӏ: 'l',
  α: 'a',
  ο: 'o',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  ι: 'l',
  κ: 'k',
  ε: 'e',
  '1': 'l',
  i: 'l',
  '0': 'o',
  '5': 's',
  '3': 'e',
  _: '-',
};

/** The skeleton of a domain (lowercased, Unicode labels): what it looks like, letters that look alike folded. */
export function skeleton(domain: string): string {
  const unicode = domainToUnicode(domain.toLowerCase()) || domain.toLowerCase();
  let folded = '';
  for (const ch of unicode.normalize('NFKC')) folded += confusables[ch] ?? ch;
  return folded.replace(/rn/g, 'm').replace(/vv/g, 'w').replace(/cl/g, 'd');
}

const isUnder = (domain: string, parent: string) => domain === parent || domain.endsWith(`.${parent}`);

/**
 * Which protected domain a sender imitates, and how; null when it does not. `own_domain`: the From is one of the
 * protected domains (or under one) but did not prove itself — not ours, whatever it says; `lookalike_domain`: the
 * From domain looks like one (homographs, swaps) or wears one as its first labels (`mailroom.test.evil.example`);
 * `display_name`: the display name names a protected domain the From is not under.
 */
export function impostorOf(
  from: MailAddress | undefined,
  proved: boolean,
  protectedDomains: readonly string[],
): SenderTrust['impostor'] {
  if (!from?.email.includes('@')) return null;
  const raw = from.email.slice(from.email.lastIndexOf('@') + 1).toLowerCase();
  const domain = domainToASCII(raw) || raw;
  for (const guarded of protectedDomains) {
    if (isUnder(domain, guarded)) {
      if (!proved) return { imitates: guarded, reason: 'own_domain' };
      continue;
    }
    const looks = skeleton(domain);
    const real = skeleton(guarded);
    if (
      looks === real ||
      looks.endsWith(`.${real}`) ||
      domain.startsWith(`${guarded}.`) ||
      looks.startsWith(`${real}.`)
    )
      return { imitates: guarded, reason: 'lookalike_domain' };
  }
  const name = skeleton(from.name.replace(/\s+/g, ''));
  for (const guarded of protectedDomains) {
    if (isUnder(domain, guarded)) continue;
    if (name.includes(skeleton(guarded))) return { imitates: guarded, reason: 'display_name' };
  }
  return null;
}

/** What the reader shows of who sent a message (issue 30), from what the receiving path found out. */
export function senderTrust(
  verdict: MessageVerdict | null,
  from: MailAddress | undefined,
  replyTo: MailAddress | undefined,
  protectedDomains: readonly string[],
): SenderTrust {
  const proved = fromDomainProved(verdict);
  const status: SenderTrust['status'] = !verdict ? 'unknown' : proved ? 'verified' : 'unverified';
  const fromEmail = from?.email.toLowerCase() ?? '';
  const domain = verdict?.auth?.fromDomain || fromEmail.slice(fromEmail.lastIndexOf('@') + 1);
  // Mail that was never checked is judged by its looks alone: a look-alike still is one.
  const impostor = impostorOf(from, verdict ? proved : true, protectedDomains);
  const spam = verdict?.spam;
  const auth = verdict?.auth;
  return {
    status,
    domain,
    impostor,
    reply_to: replyTo && replyTo.email.toLowerCase() !== fromEmail ? replyTo.email : null,
    spam:
      spam?.status === 'scored'
        ? { score: spam.score, required: spam.required, action: spam.action, symbols: spam.symbols }
        : null,
    spam_unchecked: spam?.status === 'unavailable',
    junk_reason: verdict?.junk ?? null,
    list: verdict?.list ?? null,
    results: auth
      ? {
          spf: auth.spf.result,
          dkim: auth.dkim.find((d) => d.result === 'pass')?.result ?? auth.dkim[0]?.result ?? 'none',
          dmarc: auth.dmarc.result,
          arc: auth.arc.result,
        }
      : null,
  };
}
