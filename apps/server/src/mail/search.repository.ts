import type { RawBuilder, SqlBool } from 'kysely';
import type { Db } from '../core/db/index.js';
import { listColumns, type ListRow } from './list-items.js';

/** One page of the messages matching `condition`, newest first (the order of every mail list). */
export async function pageOfMessages(
  db: Db,
  condition: RawBuilder<SqlBool>,
  page: { limit: number; offset: number },
): Promise<ListRow[]> {
  return db
    .selectFrom('messages')
    .select(listColumns)
    .where(condition)
    .orderBy('messages.received_at', 'desc')
    .orderBy('messages.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countMessages(db: Db, condition: RawBuilder<SqlBool>): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(condition)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Every message matching `condition` (all pages), as folder and uid, for bulk actions. */
export async function matchingMessages(
  db: Db,
  condition: RawBuilder<SqlBool>,
): Promise<{ folder_id: number; uid: number }[]> {
  return db
    .selectFrom('messages')
    .select(['messages.folder_id', 'messages.uid'])
    .where(condition)
    .orderBy('messages.folder_id')
    .orderBy('messages.uid')
    .execute();
}
