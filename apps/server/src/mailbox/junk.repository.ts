import type { FolderMessages } from '@mailroom/protocol';
import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';

/**
 * Messages in Junk folders that arrived before `before`, at most `limit`, grouped by account and folder (for Junk's
 * retention: each group is purged by `purgeMessages`). Oldest first, so a backlog drains from the oldest.
 */
export async function oldJunk(
  db: Db,
  before: Date,
  limit: number,
): Promise<{ accountId: number; folderMessages: FolderMessages }[]> {
  const { rows } = await sql<{ account_id: number; folder_id: number; uids: number[] }>`
    select m.account_id, m.folder_id, array_agg(m.uid order by m.uid) as uids
    from (
      select m.account_id, m.folder_id, m.uid
      from messages m
      join folders f on f.id = m.folder_id and f.system = 'junk'
      where m.received_at < ${before}
      order by m.received_at
      limit ${limit}
    ) m
    group by m.account_id, m.folder_id`.execute(db);
  return rows.map((r) => ({
    accountId: Number(r.account_id),
    folderMessages: { folder_id: Number(r.folder_id), message_uids: r.uids.map(Number) },
  }));
}
