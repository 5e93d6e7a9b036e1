import {
  ATTACHMENTS_TOTAL_LIMIT_BYTES,
  recipientFieldNames,
  type ComposeRequest,
  type ComposeSource,
  type RecipientFieldName,
} from '@mailroom/protocol';
import type { RecipientTag } from './addresses';
import type { BodyFormat } from './compose-body';

export type RecipientFields = Record<RecipientFieldName, RecipientTag[]>;

export const emptyRecipients = (): RecipientFields => ({ to: [], cc: [], bcc: [], 'reply-to': [] });

/** What the form holds, in the shape the request is built from. */
export interface ComposeForm {
  from: { email: string; name: string };
  recipients: RecipientFields;
  subject: string;
  body: string;
  format: BodyFormat;
  /** Ids of uploaded (or copied) attachments; uploads still running are not in here. */
  attachments: number[];
  /** The draft this message replaces once saved (SPEC §4: later saves replace it, sending deletes it). */
  draftUid: number | null;
  source: ComposeSource | null;
}

/** Why a message cannot be sent yet, as catalogue codes (SPEC §5). */
export type SendProblem =
  { code: 'invalid_email_for'; fields: RecipientFieldName[] } | { code: 'email_not_specified' };

/**
 * SPEC §5: a flagged piece in any recipient field gives invalid_email_for with those fields' names; no recipient
 * at all (To, Cc or Bcc) gives email_not_specified. Reply-To alone is not a recipient.
 */
export function sendProblem(recipients: RecipientFields): SendProblem | null {
  const fields = recipientFieldNames.filter((field) => recipients[field].some((tag) => !tag.valid));
  if (fields.length > 0) return { code: 'invalid_email_for', fields };
  const count = recipients.to.length + recipients.cc.length + recipients.bcc.length;
  return count === 0 ? { code: 'email_not_specified' } : null;
}

/** Whether the attachments so far and a file of `adding` bytes stay within the 50 MB of SPEC §1. */
export function fitsAttachmentLimit(sizes: readonly number[], adding: number): boolean {
  return sizes.reduce((sum, size) => sum + size, 0) + adding <= ATTACHMENTS_TOTAL_LIMIT_BYTES;
}

/**
 * The body of POST messages/send or messages/draft. A draft may hold flagged pieces: only the valid
 * addresses are saved, so the server never refuses a draft for a half-typed address.
 */
export function composeRequest(form: ComposeForm, isDraft: boolean): ComposeRequest {
  const field = (name: RecipientFieldName) =>
    form.recipients[name].filter((tag) => tag.valid).map((tag) => ({ email: tag.email, name: tag.name }));
  return {
    subject: form.subject,
    fields: {
      from: form.from,
      to: field('to'),
      cc: field('cc'),
      bcc: field('bcc'),
      'reply-to': field('reply-to'),
    },
    content: form.body,
    content_type: form.format === 'html' ? 'text/html' : 'text/plain',
    attachments: form.attachments,
    uid: form.draftUid,
    source: form.source,
    isDraft,
  };
}
