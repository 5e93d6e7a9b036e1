import { sql } from 'kysely';
import type { Db, Trx } from '../core/db/index.js';

/** The SQL of scheduled sends (migration 041): one row per message waiting in Scheduled, kept a day once sent. */

export type ScheduledRow = {
  id: number;
  account_id: number;
  message_row_id: number | null;
  purpose: 'undo' | 'later';
  state: 'waiting' | 'sent';
  send_at: Date;
  blob_hash: string;
  size: number;
  message_id: string;
  envelope_from: string;
  recipients: { address: string; local: boolean }[];
  source_row_id: number | null;
  upload_ids: number[];
  encrypted: boolean;
  remind_after_days: number | null;
};

export async function insertScheduled(
  trx: Trx,
  row: Omit<ScheduledRow, 'id' | 'state' | 'recipients'> & { recipients: string },
): Promise<number> {
  const { id } = await trx
    .insertInto('scheduled_sends')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

/** How many of the account's messages wait to be sent (SCHEDULED_MAX bounds it). */
export async function countWaiting(trx: Db | Trx, accountId: number): Promise<number> {
  const row = await trx
    .selectFrom('scheduled_sends')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('state', '=', 'waiting')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const scheduledRow = (row: {
  id: number | string;
  account_id: number | string;
  message_row_id: number | string | null;
  source_row_id: number | string | null;
  upload_ids: (number | string)[];
}) => ({
  id: Number(row.id),
  account_id: Number(row.account_id),
  message_row_id: row.message_row_id === null ? null : Number(row.message_row_id),
  source_row_id: row.source_row_id === null ? null : Number(row.source_row_id),
  upload_ids: row.upload_ids.map(Number),
});

/**
 * The row of a scheduled send, locked: its release, a cancel and a "send now" each take this lock first, so one of
 * them decides and the other sees what it decided.
 */
export async function lockScheduled(
  trx: Trx,
  id: number,
  accountId?: number,
): Promise<ScheduledRow | undefined> {
  const row = await trx
    .selectFrom('scheduled_sends')
    .selectAll()
    .where('id', '=', id)
    .$if(accountId !== undefined, (q) => q.where('account_id', '=', accountId!))
    .forUpdate()
    .executeTakeFirst();
  return row ? { ...row, ...scheduledRow(row) } : undefined;
}

/** The rows of several scheduled sends (a due claim's batch), locked in id order; the ones gone are absent. */
export async function lockScheduledEach(trx: Trx, ids: number[]): Promise<ScheduledRow[]> {
  if (!ids.length) return [];
  const rows = await trx
    .selectFrom('scheduled_sends')
    .selectAll()
    .where('id', '=', sql<number>`any(${ids}::bigint[])`)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((row) => ({ ...row, ...scheduledRow(row) }));
}

export async function markScheduledSent(trx: Trx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await trx
    .updateTable('scheduled_sends')
    .set({ state: 'sent', finished_at: sql<Date>`now()`, message_row_id: null })
    .where('id', '=', sql<number>`any(${ids}::bigint[])`)
    .execute();
}

export async function deleteScheduled(trx: Trx, ids: number[]): Promise<void> {
  if (!ids.length) return;
  await trx
    .deleteFrom('scheduled_sends')
    .where('id', '=', sql<number>`any(${ids}::bigint[])`)
    .execute();
}

export async function setSendAt(trx: Trx, id: number, at: Date): Promise<void> {
  await trx.updateTable('scheduled_sends').set({ send_at: at }).where('id', '=', id).execute();
}

/** What waits to be sent, soonest first, with where each copy is (in Scheduled). */
export async function waitingSends(db: Db, accountId: number) {
  return db
    .selectFrom('scheduled_sends')
    .innerJoin('messages', 'messages.id', 'scheduled_sends.message_row_id')
    .select([
      'scheduled_sends.id',
      'scheduled_sends.purpose',
      'scheduled_sends.send_at',
      'messages.folder_id',
      'messages.uid',
    ])
    .where('scheduled_sends.account_id', '=', accountId)
    .where('scheduled_sends.state', '=', 'waiting')
    .orderBy('scheduled_sends.send_at')
    .orderBy('scheduled_sends.id')
    .execute();
}

/** Sent rows are kept a day (a late Undo is told "already sent"); older ones go. */
export async function deleteFinishedScheduled(db: Db, before: Date): Promise<void> {
  await db
    .deleteFrom('scheduled_sends')
    .where('state', '=', 'sent')
    .where('finished_at', '<', before)
    .execute();
}
