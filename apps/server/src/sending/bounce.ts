import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

/** Why a recipient did not get a message, as the DSN reports it (RFC 3464). */
export interface DeliveryFailure {
  recipient: string;
  /** Enhanced status code (RFC 3463), e.g. 5.1.1. */
  status: string;
  /** What the remote server (or our own store) said. */
  diagnostic: string;
  /** `smtp` for a reply of the relay, `x-local` for our own store. */
  diagnosticType: 'smtp' | 'x-local';
}

/** The header block of a message (up to the empty line), bounded: what the DSN quotes. */
export function headerBlock(raw: Buffer, max = 64 * 1024): string {
  const end = raw.indexOf('\r\n\r\n');
  return raw.subarray(0, Math.min(end === -1 ? raw.length : end + 2, max)).toString('utf8');
}

// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u001f\u007f]+/g;
const oneLine = (s: string) => s.replace(controls, ' ').trim().slice(0, 900);

/**
 * A delivery status notification for the sender's Inbox: multipart/report with a readable
 * explanation, message/delivery-status and the original's headers (text/rfc822-headers),
 * composed with MailComposer (the report type set on its root node).
 */
export function buildBounce(input: {
  mailDomain: string;
  sender: string;
  failure: DeliveryFailure;
  originalHeaders: string;
  originalMessageId: string | null;
  arrivalDate: Date;
}): Promise<Buffer> {
  const { failure, mailDomain } = input;
  const now = new Date();
  const rfcDate = (d: Date) => d.toUTCString().replace(/GMT$/, '+0000');
  const explanation = [
    'This is the mail system at ' + mailDomain + '.',
    '',
    'Your message could not be delivered to the following recipient:',
    '',
    `  ${failure.recipient}`,
    '',
    `Reason: ${oneLine(failure.diagnostic)}`,
    '',
    failure.status.startsWith('5')
      ? 'The delivery failed permanently; no further attempts will be made.'
      : 'Delivery was retried for some time without success; no further attempts will be made.',
  ].join('\r\n');
  const status = [
    `Reporting-MTA: dns; ${mailDomain}`,
    `Arrival-Date: ${rfcDate(input.arrivalDate)}`,
    '',
    `Final-Recipient: rfc822; ${oneLine(failure.recipient)}`,
    'Action: failed',
    `Status: ${failure.status}`,
    `Diagnostic-Code: ${failure.diagnosticType}; ${oneLine(failure.diagnostic)}`,
    `Last-Attempt-Date: ${rfcDate(now)}`,
    '',
  ].join('\r\n');
  const composer = new MailComposer({
    from: { name: 'Mail Delivery System', address: `MAILER-DAEMON@${mailDomain}` },
    to: input.sender,
    subject: 'Undelivered Mail Returned to Sender',
    messageId: `<${randomUUID()}@${mailDomain}>`,
    date: now,
    ...(input.originalMessageId
      ? { inReplyTo: `<${input.originalMessageId}>`, references: [`<${input.originalMessageId}>`] }
      : {}),
    headers: { 'Auto-Submitted': 'auto-replied' },
    text: explanation,
    attachments: [
      { contentType: 'message/delivery-status', content: status, filename: false },
      {
        contentType: 'text/rfc822-headers',
        content: input.originalHeaders,
        filename: false,
        contentDisposition: 'inline',
        // Our own headers are ASCII (encoded words): quoted as they are, readable in any client.
        contentTransferEncoding: /^[\t\r\n\x20-\x7e]*$/.test(input.originalHeaders) ? '7bit' : 'base64',
      },
    ],
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const root = composer.compile();
  root.setHeader('Content-Type', 'multipart/report; report-type=delivery-status');
  return root.build();
}
