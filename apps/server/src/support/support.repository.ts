import { countRows, type Db, type Trx } from '../core/db/index.js';

export interface SupportRequestRow {
  id: number;
  subject: string;
  text: string;
  diagnostics: boolean;
  created_at: Date;
}

const columns = ['id', 'subject', 'text', 'diagnostics', 'created_at'] as const;

export function supportRequestsOf(db: Db, accountId: number, limit: number): Promise<SupportRequestRow[]> {
  return db
    .selectFrom('support_requests')
    .select(columns)
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The latest requests of every account, newest first (the operator's `mailroom support list`). */
export function latestSupportRequests(
  db: Db,
  limit: number,
): Promise<(SupportRequestRow & { account_id: number })[]> {
  return db
    .selectFrom('support_requests')
    .select([...columns, 'account_id'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countSupportRequestsSince(trx: Trx, accountId: number, since: Date): Promise<number> {
  return countRows(
    trx.selectFrom('support_requests').where('account_id', '=', accountId).where('created_at', '>', since),
  );
}

export function insertSupportRequest(
  trx: Trx,
  values: { account_id: number; subject: string; text: string; diagnostics: boolean; created_at: Date },
): Promise<SupportRequestRow> {
  return trx.insertInto('support_requests').values(values).returning(columns).executeTakeFirstOrThrow();
}

export async function deleteSupportRequest(db: Db, id: number): Promise<void> {
  await db.deleteFrom('support_requests').where('id', '=', id).execute();
}
