import { COMPOSE_MODE, formatFullDate, type Account, type ComposeMode, type Mail } from '@mailroom/protocol';
import { ownAddresses } from '../account';
import { decodeContent, sanitiseMessageHtml } from '../message-view';
import { fromOptions, replyFrom, replyRecipients, toTag, type FromOption } from './addresses';
import { initialBody, wantsSignature, type BodyFormat, type QuotedOriginal } from './compose-body';
import { emptyRecipients, type RecipientFields } from './compose-request';
import type { ComposeRequestOpen } from './compose-store';
import type { EncryptionChoice } from './encrypt-switch';
import { prefixedSubject } from './subject';

/** The interface texts the quote header needs, from i18n. */
export interface QuoteTexts {
  replyHeader(values: { date: string; sender: string }): string;
  forwardTitle: string;
  from: string;
  date: string;
  subject: string;
  to: string;
}

export interface ComposeInitial {
  mode: ComposeMode;
  fromChoices: FromOption[];
  fromId: string;
  recipients: RecipientFields;
  subject: string;
  body: string;
  format: BodyFormat;
  /** Whether the body carries the From's signature (so a change of From swaps it). */
  withSignature: boolean;
  draftUid: number | null;
  source: { folder_id: number; uid: number; mode: 1 | 2 | 3 } | null;
  /** A stored message whose attachments come along (forward, reopened draft), with their ids in its order. */
  copyFrom: { folder_id: number; uid: number; ids: number[] } | null;
  /** A window brought back by Undo send: its encryption and the files it kept in the browser. */
  restored?: { encryption: EncryptionChoice; files: File[] };
}

/**
 * A compose window as it was sent, kept in memory while the send is held for Undo: Undo opens it again exactly
 * so, on the draft the cancelled send became (which brings the uploaded attachments back).
 */
export type ComposeSnapshot = Omit<ComposeInitial, 'draftUid' | 'copyFrom'> & {
  restored: NonNullable<ComposeInitial['restored']>;
};

/** The window an Undo brings back: the snapshot, on the draft the cancel returned (none for an encrypted one). */
export function restoredCompose(snapshot: ComposeSnapshot, draft: Mail | undefined): ComposeInitial {
  return {
    ...snapshot,
    draftUid: draft?.uid ?? null,
    copyFrom:
      draft && draft.attachments.length > 0
        ? { folder_id: draft.folder_id, uid: draft.uid, ids: draft.attachments.map((a) => a.id) }
        : null,
  };
}

function person(address: { name: string; email: string } | undefined): string {
  if (!address) return '';
  return address.name ? `${address.name} <${address.email}>` : address.email;
}

function quoteOf(mode: ComposeMode, message: Mail, texts: QuoteTexts, locale: string): QuotedOriginal {
  const html = message.content_type === 'text/html';
  const raw = decodeContent(message.content);
  const date = formatFullDate(message.created_at, new Date(), locale);
  const sender = person(message.fields.from[0]);
  const header =
    mode === COMPOSE_MODE.FORWARD
      ? [
          texts.forwardTitle,
          `${texts.from}: ${sender}`,
          `${texts.date}: ${date}`,
          `${texts.subject}: ${message.subject}`,
          `${texts.to}: ${message.fields.to.map(person).join(', ')}`,
        ]
      : [texts.replyHeader({ date, sender })];
  return { header, body: html ? sanitiseMessageHtml(raw) : raw, bodyFormat: html ? 'html' : 'plain' };
}

/**
 * What a compose window starts with (SPEC §4): for a reply the prefixed subject, the recipients without the
 * user's own addresses and the quoted original; for a forward the original's attachments; for a draft what was
 * saved; and the From's signature where signature_add wants one.
 */
export function initialCompose(
  request: ComposeRequestOpen,
  draft: Mail | undefined,
  account: Account,
  aliasOnly: string | null,
  texts: QuoteTexts,
  locale: string,
): ComposeInitial {
  const fromChoices = fromOptions(account, aliasOnly);
  if (draft) {
    const sender = draft.fields.from[0]?.email.toLowerCase();
    const from = fromChoices.find((option) => option.email.toLowerCase() === sender) ?? fromChoices[0];
    const recipients = emptyRecipients();
    for (const field of ['to', 'cc', 'bcc', 'reply-to'] as const)
      recipients[field] = draft.fields[field].map(toTag);
    const html = draft.content_type === 'text/html';
    const raw = decodeContent(draft.content);
    return {
      mode: COMPOSE_MODE.NEW,
      fromChoices,
      fromId: from?.id ?? '',
      recipients,
      subject: draft.subject,
      body: html ? sanitiseMessageHtml(raw) : raw,
      format: html ? 'html' : 'plain',
      withSignature: false,
      draftUid: draft.uid,
      source: null,
      copyFrom:
        draft.attachments.length > 0
          ? { folder_id: draft.folder_id, uid: draft.uid, ids: draft.attachments.map((a) => a.id) }
          : null,
    };
  }

  const { mode, source } = request;
  const from = replyFrom(fromChoices, source);
  const recipients = emptyRecipients();
  if (source) {
    const { to, cc } = replyRecipients(mode, source, ownAddresses(account));
    recipients.to = to.map(toTag);
    recipients.cc = cc.map(toTag);
  } else if (request.to) {
    recipients.to = request.to.map(toTag);
  }
  const withSignature =
    wantsSignature(mode, account.settings.signature_add) && Boolean(from?.signature.trim());
  const format: BodyFormat = 'html';
  return {
    mode,
    fromChoices,
    fromId: from?.id ?? '',
    recipients,
    subject: source ? prefixedSubject(mode, source.subject) : '',
    body: initialBody({
      format,
      signature: withSignature ? (from?.signature ?? '') : '',
      signatureAboveQuote: account.settings.signature_reply,
      quote: source && mode !== COMPOSE_MODE.NEW ? quoteOf(mode, source, texts, locale) : null,
    }),
    format,
    withSignature,
    draftUid: null,
    source:
      source && mode !== COMPOSE_MODE.NEW
        ? { folder_id: source.folder_id, uid: source.uid, mode: mode as 1 | 2 | 3 }
        : null,
    copyFrom:
      source && mode === COMPOSE_MODE.FORWARD && source.attachments.length > 0
        ? { folder_id: source.folder_id, uid: source.uid, ids: source.attachments.map((a) => a.id) }
        : null,
  };
}
