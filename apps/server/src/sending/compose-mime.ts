import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { convert } from 'html-to-text';
import type { BlobStore } from '../core/blobs/index.js';
import { restoreProxiedImageUrls } from '../mail/index.js';
import type { OutgoingHeaders } from './outgoing.js';

/** A file of the message; its bytes are a blob (uploaded, or of a forwarded message). */
export interface OutgoingAttachment {
  name: string;
  contentType: string;
  blobHash: string;
  size: number;
}

/**
 * A message ready to be put into MIME: checked headers, the body in its final form, and the
 * thread it answers. The seam for other kinds of body (an encrypted message's notice): build
 * the parts, then hand them to sendMessage.
 */
export interface OutgoingMessage extends OutgoingHeaders {
  text: string;
  html: string | null;
  attachments: OutgoingAttachment[];
  inReplyTo: string | null;
  references: string[];
  /** Extra header fields (X-Mailroom-Encrypted on an encrypted message's notice). */
  headers?: Record<string, string>;
}

/** Every line break as CRLF: a lone CR or LF must never reach the bytes we relay. */
export function crlf(text: string): string {
  return text.replace(/\r\n|\r|\n/g, '\r\n');
}

/**
 * The text alternative of an HTML body: html-to-text keeps paragraphs, lists, link targets
 * and quotes readable; images and their data URLs are left out.
 */
export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: 78,
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
}

/**
 * The text and HTML parts for content as typed in the compose window. Images quoted from a message read
 * with images shown point at our image proxy: they go out with their own addresses again.
 */
export function bodyParts(content: string, contentType: 'text/plain' | 'text/html') {
  if (contentType === 'text/plain') return { text: crlf(content), html: null };
  const html = restoreProxiedImageUrls(content);
  return { text: crlf(htmlToText(html)), html: crlf(html) };
}

export function newMessageId(fromEmail: string): string {
  const domain = fromEmail.slice(fromEmail.lastIndexOf('@') + 1).toLowerCase();
  return `${randomUUID()}@${domain}`;
}

const mailbox = (a: { email: string; name: string }) => ({ name: a.name, address: a.email });

/**
 * RFC 5322 bytes with MailComposer: encoded words for non-ASCII names and subject, a text
 * alternative beside HTML, attachments streamed from the blob store. `keepBcc`: the Bcc header
 * stays (the sender's own copy); recipients never get it.
 */
export async function buildMime(
  blobs: BlobStore,
  message: OutgoingMessage,
  ids: { messageId: string; date: Date },
  opts: { keepBcc: boolean },
): Promise<Buffer> {
  const options: Mail.Options = {
    from: mailbox(message.from),
    to: message.to.map(mailbox),
    cc: message.cc.map(mailbox),
    bcc: message.bcc.map(mailbox),
    replyTo: message.replyTo.map(mailbox),
    subject: message.subject,
    messageId: `<${ids.messageId}>`,
    date: ids.date,
    text: message.text,
    ...(message.html !== null ? { html: message.html } : {}),
    ...(message.inReplyTo ? { inReplyTo: `<${message.inReplyTo}>` } : {}),
    ...(message.references.length ? { references: message.references.map((r) => `<${r}>`) } : {}),
    ...(message.headers ? { headers: message.headers } : {}),
    attachments: await Promise.all(
      message.attachments.map(async (a) => ({
        filename: a.name,
        contentType: a.contentType,
        // A fresh stream per build: the Sent copy and the recipients' copy are built separately.
        content: await blobs.stream(a.blobHash),
      })),
    ),
    // Never read local files or URLs named in the content: only the blobs above.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  const composer = new MailComposer(options);
  const root = composer.compile();
  if (opts.keepBcc) root.keepBcc = true;
  return root.build();
}

/** A trace field, as every MTA adds: it also tells the recipients' copy from the Sent copy. */
export function receivedHeader(mailDomain: string, date: Date): Buffer {
  const stamp = date.toUTCString().replace(/GMT$/, '+0000');
  return Buffer.from(`Received: by ${mailDomain} (Mailroom) with HTTP;\r\n ${stamp}\r\n`);
}
