import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  MailParser,
  simpleParser,
  type AddressObject,
  type AttachmentStream,
  type MessageText,
  type ParsedMail,
} from 'mailparser';
import type { MailAddress, MessageAddresses, PartRange } from '../../core/db/index.js';
import {
  MAX_ATTACHMENTS,
  cleanBody,
  cleanLine,
  normaliseMessageId,
  safeAttachmentName,
  type ParsedMessage,
} from './message-text.js';
import { partRangesOf, partRangeTracker } from './part-ranges.js';

function addressList(value: AddressObject | AddressObject[] | undefined): MailAddress[] | undefined {
  if (!value) return undefined;
  const out: MailAddress[] = [];
  const walk = (entries: AddressObject['value']) => {
    for (const entry of entries) {
      if (entry.group) walk(entry.group);
      else if (entry.address) {
        out.push({ email: cleanLine(entry.address).trim().toLowerCase(), name: cleanLine(entry.name ?? '') });
      }
    }
  };
  for (const obj of Array.isArray(value) ? value : [value]) walk(obj.value);
  return out.slice(0, 1000);
}

/** The parts of mailparser's result that are read here; an attachment is known by its part id and size. */
type MailParts = Omit<ParsedMail, 'attachments'> & {
  attachments: {
    filename?: string | undefined;
    contentType: string;
    partId?: string | undefined;
    size: number;
    contentId?: string | undefined;
    contentDisposition?: string | undefined;
    related?: boolean | undefined;
  }[];
};

/**
 * What is kept of mailparser's result, each attachment placed in the raw message by `ranges`
 * (`partRangeTracker`). An attachment with no range would be a disagreement between mailparser
 * and the splitter that cannot happen with the same splitter on the same bytes: it throws, and
 * the caller falls back to the header-only description (the raw message is kept whole).
 */
export function fromParsedMail(mail: MailParts, ranges: Map<string, PartRange>): ParsedMessage {
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
    references: references
      .slice(0, 100)
      .map(normaliseMessageId)
      .filter((r): r is string => r !== null),
    subject: cleanLine(mail.subject ?? '').slice(0, 2000),
    addresses,
    sentAt: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    text: cleanBody(mail.text ?? ''),
    html: typeof mail.html === 'string' ? cleanBody(mail.html) : null,
    attachments: mail.attachments.slice(0, MAX_ATTACHMENTS).map((a) => {
      const part = ranges.get(a.partId ?? '');
      if (!part) throw new Error(`No byte range for MIME part ${a.partId ?? '(none)'}`);
      return {
        name: safeAttachmentName(a.filename ?? ''),
        contentType: cleanLine(a.contentType || 'application/octet-stream').slice(0, 255),
        size: a.size,
        part,
        contentId: normaliseMessageId(a.contentId),
        inline: a.contentDisposition === 'inline' || Boolean(a.related),
      };
    }),
  };
}

/** mailparser in the calling thread: only for the parse worker, which runs under resource limits. */
export async function parseMessageUnbounded(raw: Buffer): Promise<ParsedMessage> {
  const [mail, ranges] = await Promise.all([
    simpleParser(raw, { skipTextToHtml: true, skipImageLinks: true }),
    partRangesOf(raw),
  ]);
  return fromParsedMail(
    { ...mail, attachments: mail.attachments.map((a) => ({ ...a, size: a.content.length })) },
    ranges,
  );
}

const HEADER_FIELDS = [
  'subject',
  'references',
  'date',
  'to',
  'from',
  'cc',
  'bcc',
  'message-id',
  'in-reply-to',
  'reply-to',
];

/**
 * mailparser over a message file, streaming: each attachment is decoded only to count its size
 * (its bytes stay in the message file, which is stored as it is), so memory holds only the text
 * parts, never the message or an attachment. A second splitter beside the parser learns where
 * each attachment lies in the file. Only for the parse worker.
 */
export function parseMessageFileUnbounded(file: string): Promise<ParsedMessage> {
  return new Promise((resolve, reject) => {
    const parser = new MailParser({ skipTextToHtml: true, skipImageLinks: true });
    const tracker = partRangeTracker();
    const input = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
    const mail: Record<string, unknown> & { attachments: MailParts['attachments'] } = { attachments: [] };
    let headers: Map<string, unknown> | undefined;
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      input.destroy();
      parser.destroy();
      tracker.input.destroy();
      reject(err instanceof Error ? err : new Error(String(err)));
    };
    input.once('error', fail);
    tracker.ranges.catch(fail);
    // Like simpleParser: a non-fatal error may still reach 'end'; the first outcome wins.
    parser.on('error', fail);
    parser.on('headers', (h) => (headers = h as Map<string, unknown>));
    parser.on('data', (data: AttachmentStream | MessageText) => {
      if (data.type === 'text') {
        if (typeof data.text === 'string') mail.text = data.text;
        if (typeof data.html === 'string') mail.html = data.html;
        return;
      }
      const attachment = data;
      const entry = {
        filename: attachment.filename,
        contentType: attachment.contentType,
        partId: attachment.partId,
        size: 0,
        contentId: attachment.contentId,
        contentDisposition: attachment.contentDisposition,
        related: attachment.related,
      };
      if (mail.attachments.length < MAX_ATTACHMENTS) mail.attachments.push(entry);
      // The parser goes on once the attachment is read and released: one at a time, streamed.
      const content = attachment.content as Readable;
      content
        .on('data', (chunk: Buffer) => (entry.size += chunk.length))
        .on('end', () => attachment.release())
        .on('error', fail);
    });
    parser.on('end', () => {
      if (failed) return;
      for (const key of HEADER_FIELDS)
        if (headers?.has(key))
          mail[key.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())] = headers.get(key);
      tracker.ranges.then((ranges) => {
        try {
          resolve(fromParsedMail(mail as unknown as MailParts, ranges));
        } catch (err) {
          fail(err);
        }
      }, fail);
    });
    input.pipe(parser);
    input.pipe(tracker.input);
  });
}
