import { simpleParser } from 'mailparser';
import { cleanBody, HEADER_LIMIT, type ParsedMessage } from './message-text.js';
import { fromParsedMail } from './parse-message.js';
/** Body bytes shown as plain text when the message could not be parsed. */
const BODY_LIMIT = 64 * 1024;

function headerEnd(raw: Buffer): number {
  const crlf = raw.indexOf('\r\n\r\n');
  if (crlf !== -1 && crlf < HEADER_LIMIT) return crlf + 4;
  const lf = raw.indexOf('\n\n');
  if (lf !== -1 && lf < HEADER_LIMIT) return lf + 2;
  return Math.min(raw.length, HEADER_LIMIT);
}

/**
 * What a message shows when mailparser failed or ran out of time or memory on it: subject,
 * addresses, date and ids from its first 64 KB of header (parsed by mailparser on that bounded
 * slice alone, so encoded words and charsets are still decoded), and the start of the body as
 * text. The raw message stays stored byte for byte.
 */
export async function parseHeadersOnly(raw: Buffer): Promise<ParsedMessage> {
  const end = headerEnd(raw);
  const header = Buffer.concat([raw.subarray(0, end), Buffer.from('\r\n\r\n')]);
  const body = raw.subarray(end, end + BODY_LIMIT).toString('utf8');
  try {
    const headerOnly = header.toString('latin1').replace(/^content-type:/gim, 'X-Original-Content-Type:');
    const mail = await simpleParser(Buffer.from(headerOnly, 'latin1'), {
      skipTextToHtml: true,
      skipImageLinks: true,
    });
    const parsed = fromParsedMail({ ...mail, attachments: [] }, new Map());
    return { ...parsed, text: cleanBody(body), html: null, attachments: [] };
  } catch {
    return {
      messageId: null,
      inReplyTo: null,
      references: [],
      subject: '',
      addresses: {},
      sentAt: null,
      text: cleanBody(body),
      html: null,
      attachments: [],
    };
  }
}
