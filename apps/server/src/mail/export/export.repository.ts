import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, StoredAttachment } from '../../core/db/index.js';
import { inView } from '../messages-read.repository.js';
import type { Scope } from '../../mailbox/index.js';

/** What an export reads of a message besides its bytes. */
export interface ExportRow {
  id: number;
  folder_id: number;
  uid: number;
  blob_hash: string;
  size: number;
  subject: string;
  from_email: string;
  received_at: Date;
  /** received_at as PostgreSQL writes it: the keyset's bound to the microsecond, which a Date would round. */
  at_key: string;
  attachments: StoredAttachment[];
}

/** Where the last page ended: the next page starts after this message in (received_at, id) order. */
export interface ExportCursor {
  atKey: string;
  id: number;
}

/**
 * The next `limit` messages matching `condition` after `after`, oldest first: a keyset page, so each page costs its
 * rows whatever the folder's size (the date indexes of a folder, a mailbox, read backwards).
 */
export function exportPage(
  db: Db,
  condition: RawBuilder<SqlBool>,
  after: ExportCursor | null,
  limit: number,
): Promise<ExportRow[]> {
  let query = db
    .selectFrom('messages')
    .select([
      'messages.id',
      'messages.folder_id',
      'messages.uid',
      'messages.blob_hash',
      'messages.size',
      'messages.subject',
      'messages.from_email',
      'messages.received_at',
      'messages.attachments',
    ])
    .select(sql<string>`messages.received_at::text`.as('at_key'))
    .where(condition);
  if (after)
    query = query.where(
      sql<SqlBool>`(messages.received_at, messages.id) > (${after.atKey}::timestamptz, ${after.id})`,
    );
  return query
    .orderBy('messages.received_at', 'asc')
    .orderBy('messages.id', 'asc')
    .limit(limit)
    .execute() as Promise<ExportRow[]>;
}

/** One of the caller's messages, for its download as it is stored. */
export function messageSourceRow(db: Db, accountId: number, scope: Scope, folderId: number, uid: number) {
  return db
    .selectFrom('messages')
    .select(['messages.blob_hash', 'messages.size', 'messages.subject'])
    .where('messages.account_id', '=', accountId)
    .where('messages.folder_id', '=', folderId)
    .where('messages.uid', '=', uid)
    .$call(inView(scope))
    .executeTakeFirst();
}
