/**
 * What the receiving path found out about a message (issue 30), kept with it (`message_contents.verdict`) and shown
 * by the reader: who the sender proved to be (SPF, DKIM, DMARC, ARC), what the spam scorer said, and which of the
 * member's lists the sender is on. Mail that never crossed SMTP (collected, imported, stored by the service) has
 * none; mail a member sent through us is `local`.
 */
export interface MessageVerdict {
  auth?: AuthResults;
  spam?: SpamResult;
  /** Sent by a member of this service through it (signed in): its From is theirs. */
  local?: true;
  /** The account's own list the sender is on ('contact': a trusted contact), which overrode the score. */
  list?: 'allow' | 'block' | 'contact';
  /** Where the message went because of it: Junk, and why (a DMARC quarantine, the scorer, the block list). */
  junk?: 'dmarc' | 'spam' | 'block';
}

export type AuthResult =
  'pass' | 'fail' | 'softfail' | 'neutral' | 'none' | 'temperror' | 'permerror' | 'policy';

export interface AuthResults {
  /** The From header's domain; '' when there is none, or several (DMARC cannot say). */
  fromDomain: string;
  spf: { result: AuthResult; domain: string };
  dkim: { domain: string; selector: string; result: AuthResult; aligned: boolean }[];
  dmarc: { result: AuthResult; policy: 'none' | 'quarantine' | 'reject' | null; domain: string };
  /** `trusted`: the chain passed and its last sealer is one ARC_TRUSTED_SEALERS names. */
  arc: { result: AuthResult; sealer: string; trusted: boolean };
}

export type SpamResult =
  | {
      status: 'scored';
      score: number;
      required: number;
      /** Rspamd's action: 'no action', 'greylist', 'add header', 'rewrite subject', 'soft reject', 'reject'. */
      action: string;
      symbols: { name: string; score: number }[];
    }
  /** The scorer was not reached in time: the message was delivered unchecked. */
  | { status: 'unavailable' };

/** Whether the From domain is proved: DMARC passed, or an ARC seal we trust vouched for it. */
export function fromDomainProved(verdict: MessageVerdict | null | undefined): boolean {
  if (!verdict) return false;
  if (verdict.local) return true;
  const auth = verdict.auth;
  if (!auth) return false;
  if (auth.dmarc.result === 'pass') return true;
  // Without a DMARC record: an aligned DKIM signature or SPF pass of the same domain proves it just as well.
  if (auth.dmarc.result === 'none' && auth.fromDomain) {
    const same = (d: string) =>
      d === auth.fromDomain || d.endsWith(`.${auth.fromDomain}`) || auth.fromDomain.endsWith(`.${d}`);
    if (auth.dkim.some((s) => s.result === 'pass' && same(s.domain))) return true;
    if (auth.spf.result === 'pass' && same(auth.spf.domain)) return true;
  }
  return auth.arc.trusted;
}
