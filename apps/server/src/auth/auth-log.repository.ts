import type { Selectable } from 'kysely';
import { countRows, type Database, type Db, deleteRows } from '../core/db/index.js';

/** An entry of the log as an account reads it. */
export type AuthLogRow = Omit<Selectable<Database['auth_log']>, 'id' | 'account_id'>;

export async function insertAuthLog(db: Db, rows: (AuthLogRow & { account_id: number })[]): Promise<void> {
  if (rows.length) await db.insertInto('auth_log').values(rows).execute();
}

/** One page of an account's log, newest first, and how many entries it has. */
export async function authLogPage(
  db: Db,
  accountId: number,
  page: { offset: number; limit: number },
): Promise<{ rows: AuthLogRow[]; total: number }> {
  const [rows, total] = await Promise.all([
    db
      .selectFrom('auth_log')
      .select(['at', 'ip', 'user_agent', 'method', 'success', 'address', 'member_id'])
      .where('account_id', '=', accountId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    countRows(db.selectFrom('auth_log').where('account_id', '=', accountId)),
  ]);
  return { rows, total };
}

export async function deleteAuthLogBefore(db: Db, before: Date): Promise<number> {
  return deleteRows(db.deleteFrom('auth_log').where('at', '<', before));
}
