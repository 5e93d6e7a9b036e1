import type { MailFields, MailListItem } from '@mailroom/protocol';
import type { MessageAddresses } from '../core/db/index.js';
import { messageDate } from './message-date.js';

/** The columns a list row needs (`.select(listColumns)`): never bodies or the search vector. */
export const listColumns = [
  'messages.id',
  'messages.uid',
  'messages.folder_id',
  'messages.subject',
  'messages.seen',
  'messages.flagged',
  'messages.draft',
  'messages.labels',
  'messages.addresses',
  'messages.preview',
  'messages.has_attachments',
  'messages.encrypted',
  'messages.size',
  'messages.received_at',
  'messages.sent_at',
  'messages.thread_id',
  'messages.returned_at',
  'messages.returned_for',
] as const;

export interface ListRow {
  id: number;
  uid: number;
  folder_id: number;
  subject: string;
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  labels: number[];
  addresses: MessageAddresses;
  preview: string;
  has_attachments: boolean;
  encrypted: boolean;
  size: number;
  received_at: Date;
  sent_at: Date | null;
  thread_id: number;
  returned_at: Date | null;
  returned_for: 'snooze' | 'follow_up' | null;
}

export function toMailFields(a: MessageAddresses): MailFields {
  return {
    from: a.from ?? [],
    to: a.to ?? [],
    cc: a.cc ?? [],
    bcc: a.bcc ?? [],
    'reply-to': a.reply_to ?? [],
  };
}

export function toListItem(row: ListRow): MailListItem {
  return {
    id: row.id,
    uid: row.uid,
    folder_id: row.folder_id,
    subject: row.subject,
    flags: { seen: row.seen, flagged: row.flagged, draft: row.draft },
    labels: row.labels.map(Number),
    fields: toMailFields(row.addresses),
    preview: row.preview,
    has_attachments: row.has_attachments,
    encrypted: row.encrypted,
    size: row.size,
    created_at: messageDate(row.sent_at, row.received_at).toISOString(),
    thread_id: row.thread_id,
    ...(row.returned_for && row.returned_at
      ? { returned: { for: row.returned_for, at: new Date(row.returned_at).toISOString() } }
      : {}),
  };
}
