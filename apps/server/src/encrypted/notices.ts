/**
 * The mails around an encrypted message. Recipients' languages are unknown, so each mail says
 * everything in English and in Russian. The subject is generic on purpose: the real one is inside
 * the encryption, and nothing of the message should be readable on the way or in a mailbox.
 */

/** Header naming the encrypted message a notice is about (also in the link). */
export const ENCRYPTED_HEADER = 'X-Mailroom-Encrypted';

export const ENCRYPTED_NOTICE_SUBJECT = 'Encrypted message / Зашифрованное сообщение';

export interface NoticeContent {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** What recipients of an encrypted message get instead of it: who sent it and the /decrypt link. */
export function encryptedNotice(input: {
  id: string;
  link: string;
  sender: string;
  expiresAt: Date;
}): NoticeContent {
  const until = day(input.expiresAt);
  const en = [
    `${input.sender} sent you an encrypted message.`,
    `Open it with the password the sender gave you:`,
    input.link,
    `The link works until ${until}. After a few wrong passwords the message is locked.`,
  ];
  const ru = [
    `${input.sender} отправил(а) вам зашифрованное сообщение.`,
    `Откройте его с паролем, который вам сообщил отправитель:`,
    input.link,
    `Ссылка действует до ${until}. После нескольких неверных паролей сообщение блокируется.`,
  ];
  const paragraph = (lines: string[]) =>
    `<p>${escapeHtml(lines[0]!)}<br>${escapeHtml(lines[1]!)}</p>` +
    `<p><a href="${escapeHtml(lines[2]!)}">${escapeHtml(lines[2]!)}</a></p>` +
    `<p>${escapeHtml(lines[3]!)}</p>`;
  return {
    subject: ENCRYPTED_NOTICE_SUBJECT,
    text: `${en.join('\n')}\n\n---\n\n${ru.join('\n')}\n`,
    html: `${paragraph(en)}<hr>${paragraph(ru)}`,
    headers: { [ENCRYPTED_HEADER]: input.id },
  };
}

/** Told once to the sender when wrong passwords have locked an encrypted message. */
export function lockedNotice(input: { sentAt: Date; attempts: number }): NoticeContent {
  const sent = input.sentAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  const text =
    `Your encrypted message sent on ${sent} was locked after ${input.attempts} wrong passwords. ` +
    `Nobody can open it now. If the recipient should read it, send it again with a new password.\n\n---\n\n` +
    `Ваше зашифрованное сообщение, отправленное ${sent}, заблокировано после ${input.attempts} неверных паролей. ` +
    `Теперь его никто не откроет. Если получатель должен его прочитать, отправьте его снова с новым паролем.\n`;
  return {
    subject: 'Encrypted message locked / Зашифрованное сообщение заблокировано',
    text,
    html: text
      .split('\n\n---\n\n')
      .map((part) => `<p>${escapeHtml(part.trim())}</p>`)
      .join('<hr>'),
    headers: {},
  };
}

/** The encrypted message a notice links to, found in its body (the link carries the id). */
export function encryptedIdInNotice(body: string): string | undefined {
  return /\/decrypt\?id=([A-Za-z0-9_-]{22})(?![A-Za-z0-9_-])/.exec(body)?.[1];
}

/** The id in a raw message's X-Mailroom-Encrypted header, looked for in the header block only. */
export function encryptedNoticeHeader(raw: Buffer): string | undefined {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end === -1 ? Math.min(raw.length, 65_536) : end).toString('latin1');
  return /(?:^|\n)X-Mailroom-Encrypted:[ \t]*([A-Za-z0-9_-]{22})[ \t]*(?:\r?\n|$)/i.exec(head)?.[1];
}
