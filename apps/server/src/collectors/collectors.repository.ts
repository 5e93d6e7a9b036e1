import type { Selectable, Updateable } from 'kysely';
import { sql } from 'kysely';
import { countRows, type Database, type Db, ownRow, type Trx } from '../core/db/index.js';

/** The collectors table (migration 029): the collectors area's alone. */
export type CollectorRow = Selectable<Database['collectors']>;
export type CollectorPatch = Updateable<Database['collectors']>;

export function listCollectorRows(db: Db, accountId: number): Promise<CollectorRow[]> {
  return db.selectFrom('collectors').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/** The account's collector, or undefined (another account's id is no collector of this one). */
export function findCollectorRow(db: Db, accountId: number, id: number): Promise<CollectorRow | undefined> {
  return db.selectFrom('collectors').selectAll().where(ownRow(id, accountId)).executeTakeFirst();
}

/** The account's collector, row-locked for the rest of the transaction. */
export function lockCollectorRow(trx: Trx, accountId: number, id: number): Promise<CollectorRow | undefined> {
  return trx.selectFrom('collectors').selectAll().where(ownRow(id, accountId)).forUpdate().executeTakeFirst();
}

export async function countCollectorRows(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('collectors').where('account_id', '=', accountId));
}

/** Whether the account already collects this address (compared without case). */
export async function collectsAddress(db: Db, accountId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('collectors')
    .select('id')
    .where('account_id', '=', accountId)
    .where(sql<boolean>`lower(email) = lower(${email})`)
    .executeTakeFirst();
  return row !== undefined;
}

export interface NewCollector {
  account_id: number;
  email: string;
  login: string;
  host: string;
  port: number;
  security: CollectorRow['security'];
  password_sealed: string;
  folder_name: string;
  apply_filters: boolean;
}

export function insertCollectorRow(trx: Trx, row: NewCollector): Promise<CollectorRow> {
  return trx
    .insertInto('collectors')
    .values({ ...row, state: 'importing', next_sync_at: sql<Date>`now()` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateCollectorRow(
  trx: Trx,
  accountId: number,
  id: number,
  patch: CollectorPatch,
): Promise<CollectorRow> {
  return trx
    .updateTable('collectors')
    .set({ ...patch, updated_at: sql<Date>`now()` })
    .where(ownRow(id, accountId))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Removes the row; its collector_folders and collector_messages go with it (on delete cascade). */
export async function deleteCollectorRow(trx: Trx, accountId: number, id: number): Promise<void> {
  await trx.deleteFrom('collectors').where('account_id', '=', accountId).where('id', '=', id).execute();
}
