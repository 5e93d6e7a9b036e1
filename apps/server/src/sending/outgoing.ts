import {
  isEmail,
  recipientFieldNames,
  type ComposeRequestParsed,
  type OutgoingAddress,
  type RecipientFieldName,
} from '@mailroom/protocol';
import type { Principal } from '../accounts/index.js';
import type { Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { senderAddressesOf } from '../addresses/index.js';

/** A checked address: the email trimmed, the name as typed. */
export interface Mailbox {
  email: string;
  name: string;
}

/** The header fields of an outgoing message, checked: safe to put in headers and the envelope. */
export interface OutgoingHeaders {
  from: Mailbox;
  /** The alias the From address is, null for the primary address or a profile on it. */
  fromAliasId: number | null;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  replyTo: Mailbox[];
  subject: string;
}

/**
 * What never goes into a header: C0 controls but tab (CR and LF would end the header and start
 * one of the sender's choosing), DEL, and the Unicode line breaks some parsers honour.
 */
// eslint-disable-next-line no-control-regex
const forbidden = /[\u0000-\u0008\u000a-\u001f\u007f\u0085\u2028\u2029]/;

/**
 * An RFC 2047 encoded word is decoded by the receiving client, so `=?UTF-8?B?DQo=?=` is a CRLF
 * there even though our bytes hold none: the decoded text is checked too. Control characters
 * are the same bytes in every ASCII-based charset, so decoding the bytes as latin1 is enough.
 */
const encodedWord = /=\?[^?\s]+\?([bq])\?([^?\s]*)\?=/gi;

function decodeWords(value: string): string {
  return value.replace(encodedWord, (_m, encoding: string, text: string) => {
    if (encoding.toLowerCase() === 'b') return Buffer.from(text, 'base64').toString('latin1');
    return text
      .replace(/_/g, ' ')
      .replace(/=([0-9a-f]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  });
}

export function isSafeHeaderText(value: string): boolean {
  return !forbidden.test(value) && !forbidden.test(decodeWords(value));
}

type Field = 'subject' | 'from' | RecipientFieldName;

/**
 * Refuses a request whose subject, names or addresses carry a line break or control character
 * (also inside an encoded word): `invalid_header_value` naming the fields. MailComposer would
 * encode most of them, but refusing is the only answer that cannot go wrong downstream.
 */
export function checkHeaderText(request: ComposeRequestParsed): void {
  const bad = new Set<Field>();
  if (!isSafeHeaderText(request.subject)) bad.add('subject');
  const fields: [Field, OutgoingAddress[]][] = [
    ['from', [request.fields.from]],
    ...recipientFieldNames.map((f): [Field, OutgoingAddress[]] => [f, request.fields[f]]),
  ];
  for (const [field, list] of fields) {
    if (list.some((a) => !isSafeHeaderText(a.name) || !isSafeHeaderText(a.email))) bad.add(field);
  }
  if (bad.size) {
    throw new DomainError(
      'invalid_header_value',
      `Line breaks and control characters are not allowed in: ${[...bad].join(', ')}`,
    );
  }
}

/**
 * The From address must be one the caller may send from (the primary address or an alias: a profile names one of
 * them); an alias-only session may send only as its own address.
 */
export async function requireSender(
  db: Db,
  principal: Principal,
  from: OutgoingAddress,
): Promise<{ from: Mailbox; aliasId: number | null }> {
  const email = from.email.trim();
  if (!isEmail(email)) throw new DomainError('failed_validation_email_address');
  const own = await senderAddressesOf(db, principal.accountId);
  const match = own.find((a) => a.email.toLowerCase() === email.toLowerCase());
  const allowed =
    match && (!principal.aliasEmail || principal.aliasEmail.toLowerCase() === email.toLowerCase());
  if (!match || !allowed) {
    throw new DomainError(
      'failed_validation_email_address',
      'Invalid email address: not one of your addresses',
    );
  }
  return { from: { email: match.email, name: from.name.trim() || match.name }, aliasId: match.aliasId };
}

/**
 * Checks every recipient field: invalid addresses give `invalid_email_for` with the field
 * names ("Invalid email for: to, cc"); with `requireRecipient` (sending), no to, cc or bcc at
 * all gives `email_not_specified`.
 */
export function checkRecipients(
  fields: ComposeRequestParsed['fields'],
  requireRecipient: boolean,
): Pick<OutgoingHeaders, 'to' | 'cc' | 'bcc' | 'replyTo'> {
  const invalid: RecipientFieldName[] = [];
  const clean = (field: RecipientFieldName): Mailbox[] => {
    const list = fields[field].map((a) => ({ email: a.email.trim(), name: a.name.trim() }));
    if (list.some((a) => !isEmail(a.email))) invalid.push(field);
    return list;
  };
  const to = clean('to');
  const cc = clean('cc');
  const bcc = clean('bcc');
  const replyTo = clean('reply-to');
  if (invalid.length) throw new DomainError('invalid_email_for', `Invalid email for: ${invalid.join(', ')}`);
  if (requireRecipient && to.length + cc.length + bcc.length === 0)
    throw new DomainError('email_not_specified');
  return { to, cc, bcc, replyTo };
}

/** Every check of SPEC §5 and the header rules, in the order a user fixes them. */
export async function checkOutgoing(
  db: Db,
  principal: Principal,
  request: ComposeRequestParsed,
  requireRecipient: boolean,
): Promise<OutgoingHeaders> {
  checkHeaderText(request);
  const recipients = checkRecipients(request.fields, requireRecipient);
  const sender = await requireSender(db, principal, request.fields.from);
  return { from: sender.from, fromAliasId: sender.aliasId, ...recipients, subject: request.subject };
}

/** Envelope recipients: to, cc and bcc, each address once (case-insensitively). */
export function envelopeRecipients(headers: OutgoingHeaders): string[] {
  const seen = new Map<string, string>();
  for (const a of [...headers.to, ...headers.cc, ...headers.bcc]) {
    if (!seen.has(a.email.toLowerCase())) seen.set(a.email.toLowerCase(), a.email);
  }
  return [...seen.values()];
}
