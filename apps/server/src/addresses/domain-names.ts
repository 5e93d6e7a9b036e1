import net from 'node:net';
import { domainToASCII, domainToUnicode } from 'node:url';
import type { DkimAlgorithm, DomainVerification } from '@mailroom/protocol';

/**
 * The pure rules of own domains (no I/O): which names are domains, what the owner publishes to prove one is theirs,
 * how DKIM records are named and written, and the zone snippet the DNS health screen offers to copy.
 */

/** The prefix of the TXT record and the name of the meta tag that prove a domain. */
export const VERIFICATION_NAME = 'mailroom-verification';

// Letters, digits, inner hyphens, at most 63 each; at least two labels; the top label alphabetic (or an IDN's xn--).
const labelPattern = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const topLabelPattern = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * A name as the owner typed it → its ASCII form (an IDN in punycode, lowercased, without a final dot) and the form
 * people read; undefined when it is not a public DNS name (an IP address, one label, bad characters).
 */
export function parseDomainName(raw: string): { name: string; displayName: string } | undefined {
  const typed = raw.trim().replace(/\.$/, '');
  if (typed === '' || net.isIP(typed.replace(/^\[|\]$/g, '')) !== 0) return undefined;
  const name = domainToASCII(typed.toLowerCase());
  if (name === '' || name.length > 253) return undefined;
  const labels = name.split('.');
  if (labels.length < 2 || !labels.every((l) => labelPattern.test(l))) return undefined;
  if (!topLabelPattern.test(labels.at(-1)!)) return undefined;
  return { name, displayName: domainToUnicode(name) || name };
}

/** Whether the service itself holds the name: its mail domain (or a name under it) or one of its public domains. */
export function isServiceDomain(name: string, mailDomain: string, publicDomains: readonly string[]): boolean {
  return name === mailDomain || name.endsWith(`.${mailDomain}`) || publicDomains.includes(name);
}

/** The page fetched for the meta tag. */
export function siteUrlOf(template: string, name: string): string {
  return template.replaceAll('{domain}', name);
}

export function verificationOf(name: string, token: string, siteUrlTemplate: string): DomainVerification {
  return {
    token,
    txt_name: name,
    txt_value: `${VERIFICATION_NAME}=${token}`,
    meta_tag: `<meta name="${VERIFICATION_NAME}" content="${token}">`,
    url: siteUrlOf(siteUrlTemplate, name),
  };
}

/** A TXT value as a zone file and most DNS panels take it: strings of at most 255 characters (RFC 1035 §3.3.14). */
export function splitTxt(value: string, size = 255): string[] {
  const parts: string[] = [];
  for (let i = 0; i < value.length; i += size) parts.push(value.slice(i, i + size));
  return parts.length ? parts : [''];
}

/** A DKIM selector with the day it was made (`mr20261124r`, `mr20261124e`), made unique among `taken`. */
export function dkimSelector(day: Date, algorithm: DkimAlgorithm, taken: ReadonlySet<string>): string {
  const stem = `mr${day.toISOString().slice(0, 10).replaceAll('-', '')}${algorithm === 'rsa' ? 'r' : 'e'}`;
  if (!taken.has(stem)) return stem;
  for (let n = 2; ; n++) if (!taken.has(`${stem}${n}`)) return `${stem}${n}`;
}

/** The DKIM TXT record's value (RFC 6376 §3.6.1; Ed25519's p= is the bare key, RFC 8463). */
export function dkimTxtValue(algorithm: DkimAlgorithm, publicKey: string): string {
  return `v=DKIM1; k=${algorithm === 'rsa' ? 'rsa' : 'ed25519'}; p=${publicKey}`;
}

export const dkimRecordName = (selector: string, name: string) => `${selector}._domainkey.${name}`;

/** The p= of a DKIM record as found in DNS (whitespace anywhere, as some panels insert it). */
export function dkimPublicKeyIn(record: string): string | undefined {
  const tag = record
    .split(';')
    .map((t) => t.trim())
    .find((t) => /^p\s*=/i.test(t));
  return tag?.replace(/^p\s*=/i, '').replace(/\s+/g, '');
}

export const spfValue = (include: string) => `v=spf1 mx include:${include} ~all`;
export const DMARC_VALUE = 'v=DMARC1; p=none';

/** Whether an SPF record includes the service (its include: mechanism, any qualifier but -). */
export function spfIncludes(record: string, include: string): boolean {
  const terms = record.toLowerCase().split(/\s+/);
  return (
    terms[0] === 'v=spf1' &&
    terms.some((t) => /^[+~?]?include:/.test(t) && t.replace(/^[+~?]?include:/, '') === include)
  );
}

/**
 * The one SPF record to publish in place of `records` (the domain's SPF records, which lack the service or are more
 * than one — RFC 7208 §3.2 allows one): their mechanisms together, `include:<include>` added before the `all` (or
 * `redirect=`) of the first, any `-include:` of the service taken out. The owner's other senders stay allowed.
 */
export function spfWithInclude(records: string[], include: string): string {
  const mine = `include:${include.toLowerCase()}`;
  const own = (t: string) => t.toLowerCase().replace(/^[+\-~?]/, '') === mine;
  const ending = (t: string) => /^[+\-~?]?all$/i.test(t) || /^redirect=/i.test(t);
  const terms: string[] = [];
  let end: string | undefined;
  for (const record of records) {
    for (const term of record.trim().split(/\s+/).slice(1)) {
      if (ending(term)) end ??= term;
      else if (!own(term) && !terms.some((t) => t.toLowerCase() === term.toLowerCase())) terms.push(term);
    }
  }
  return ['v=spf1', ...terms, `include:${include}`, ...(end ? [end] : [])].join(' ');
}

const quoted = (s: string) => `"${s.replace(/(["\\])/g, '\\$1')}"`;

/** Every record to publish, in zone-file form, names absolute. */
export function zoneSnippet(input: {
  name: string;
  verification: DomainVerification | undefined;
  mxHost: string;
  spfInclude: string;
  dkim: { name: string; value: string[] }[];
}): string {
  const origin = `${input.name}.`;
  const lines = [`; Mailroom records for ${input.name}`];
  if (input.verification) lines.push(`${origin} 3600 IN TXT ${quoted(input.verification.txt_value)}`);
  lines.push(`${origin} 3600 IN MX 10 ${input.mxHost}.`);
  lines.push(`${origin} 3600 IN TXT ${quoted(spfValue(input.spfInclude))}`);
  for (const key of input.dkim) lines.push(`${key.name}. 3600 IN TXT ( ${key.value.map(quoted).join(' ')} )`);
  lines.push(`_dmarc.${origin} 3600 IN TXT ${quoted(DMARC_VALUE)}`);
  return `${lines.join('\n')}\n`;
}
