import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { MailAddress, MessageAddresses } from '../db/schema.js';

export interface ParsedAttachment {
  name: string;
  contentType: string;
  content: Buffer;
  contentId: string | null;
  inline: boolean;
}

/** What the store keeps of a message besides its raw bytes. */
export interface ParsedMessage {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  subject: string;
  addresses: MessageAddresses;
  sentAt: Date | null;
  text: string;
  html: string | null;
  attachments: ParsedAttachment[];
}

const PREVIEW_LENGTH = 200;

/** `<id@host>` → `id@host`; message ids are compared without brackets. */
export function normaliseMessageId(value: string | undefined | null): string | null {
  const id = value?.trim().replace(/^<|>$/g, '').trim();
  return id ? id.slice(0, 998) : null;
}

function addressList(value: AddressObject | AddressObject[] | undefined): MailAddress[] | undefined {
  if (!value) return undefined;
  const out: MailAddress[] = [];
  const walk = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.group) walk(entry.group);
      else if (entry.address) out.push({ email: entry.address.toLowerCase(), name: entry.name ?? '' });
    }
  };
  for (const obj of Array.isArray(value) ? value : [value]) walk(obj.value);
  return out;
}

/** A short, single-line text excerpt for the list. */
export function previewOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, PREVIEW_LENGTH);
}

export function fromParsedMail(mail: ParsedMail): ParsedMessage {
  const references = Array.isArray(mail.references)
    ? mail.references
    : mail.references
      ? [mail.references]
      : [];
  const addresses: MessageAddresses = {};
  const from = addressList(mail.from);
  const to = addressList(mail.to);
  const cc = addressList(mail.cc);
  const bcc = addressList(mail.bcc);
  const replyTo = addressList(mail.replyTo);
  if (from) addresses.from = from;
  if (to) addresses.to = to;
  if (cc) addresses.cc = cc;
  if (bcc) addresses.bcc = bcc;
  if (replyTo) addresses.reply_to = replyTo;
  return {
    messageId: normaliseMessageId(mail.messageId),
    inReplyTo: normaliseMessageId(mail.inReplyTo),
    references: references.map(normaliseMessageId).filter((r): r is string => r !== null),
    subject: mail.subject ?? '',
    addresses,
    sentAt: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : null,
    attachments: mail.attachments.map((a) => ({
      name: a.filename ?? '',
      contentType: a.contentType || 'application/octet-stream',
      content: a.content,
      contentId: normaliseMessageId(a.contentId),
      inline: a.contentDisposition === 'inline' || Boolean(a.related),
    })),
  };
}

/** Parses raw RFC 5322 bytes with mailparser. */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  return fromParsedMail(await simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true }));
}
