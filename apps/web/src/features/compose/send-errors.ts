import { ATTACHMENTS_TOTAL_LIMIT_MB, recipientFieldNames, type RecipientFieldName } from '@mailroom/protocol';
import { ApiError } from '../../api/client';
import { errorDisplayMessage } from '../../api/error-message';
import { translateErrorCode, type Translate } from '../../i18n';
import type { SendProblem } from './compose-request';

export const fieldLabelKeys = {
  to: 'compose.to',
  cc: 'compose.cc',
  bcc: 'compose.bcc',
  'reply-to': 'compose.replyTo',
} as const satisfies Record<RecipientFieldName, string>;

function isProblem(value: unknown): value is SendProblem {
  return typeof value === 'object' && value !== null && 'code' in value && !(value instanceof Error);
}

/** The field names a server's invalid_email_for message lists after its colon ('Invalid email for: to, cc'). */
function fieldsFromMessage(message: string): RecipientFieldName[] {
  const list = message.split(':').slice(1).join(':');
  return recipientFieldNames.filter((field) => new RegExp(`(^|[\\s,])${field}(?=$|[\\s,])`).test(list));
}

/**
 * The text for a refused send or save (SPEC §8 display rule), with invalid_email_for followed by the names of the
 * fields at fault (SPEC §5) whether the form or the server found them.
 */
export function sendErrorText(error: unknown, t: Translate): string {
  const invalidFor = (fields: RecipientFieldName[]) => {
    const head = translateErrorCode('invalid_email_for') ?? 'Invalid email for';
    return fields.length > 0
      ? `${head}: ${fields.map((field) => t(fieldLabelKeys[field])).join(', ')}`
      : head;
  };
  if (isProblem(error)) {
    return error.code === 'invalid_email_for'
      ? invalidFor(error.fields)
      : (translateErrorCode(error.code) ?? 'Recipient email not specified.');
  }
  if (error instanceof ApiError && error.code === 'invalid_email_for') {
    return invalidFor(fieldsFromMessage(error.message));
  }
  if (error instanceof ApiError && error.code === 'max_limit_reached') {
    return translateErrorCode('max_limit_reached', { limit: ATTACHMENTS_TOTAL_LIMIT_MB }) ?? error.message;
  }
  return (
    errorDisplayMessage(error, {
      catalogue: translateErrorCode,
      fallback: t('notice.somethingWrong'),
      unreachable: t('notice.unreachable'),
    }) ?? t('notice.somethingWrong')
  );
}
