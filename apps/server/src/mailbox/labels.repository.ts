import { sql } from 'kysely';
import type { Label, LabelSearchField } from '@mailroom/protocol';
import { type Db, ownRow } from '../core/db/index.js';

const labelColumns = ['id', 'name', 'color', 'search_field', 'search_content', 'folder_id'] as const;

export interface LabelValues {
  name: string;
  color: string;
  search_field: LabelSearchField;
  search_content: string;
  folder_id: number | null;
}

export async function listLabels(db: Db, accountId: number): Promise<Label[]> {
  return db
    .selectFrom('labels')
    .select(labelColumns)
    .where('account_id', '=', accountId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The caller's label or undefined: the account is part of the query. */
export async function findLabel(db: Db, accountId: number, labelId: number): Promise<Label | undefined> {
  return db.selectFrom('labels').select(labelColumns).where(ownRow(labelId, accountId)).executeTakeFirst();
}

export async function insertLabel(db: Db, accountId: number, values: LabelValues): Promise<Label> {
  return db
    .insertInto('labels')
    .values({ account_id: accountId, ...values })
    .returning(labelColumns)
    .executeTakeFirstOrThrow();
}

export async function updateLabel(
  db: Db,
  accountId: number,
  labelId: number,
  values: Partial<LabelValues>,
): Promise<Label | undefined> {
  return db
    .updateTable('labels')
    .set(values)
    .where(ownRow(labelId, accountId))
    .returning(labelColumns)
    .executeTakeFirst();
}

/** Deletes the label and takes it off every message; returns the messages that carried it. */
export async function deleteLabel(
  db: Db,
  accountId: number,
  labelId: number,
): Promise<{ deleted: boolean; untagged: { folder_id: number; uid: number }[] }> {
  const deleted = await db
    .deleteFrom('labels')
    .where(ownRow(labelId, accountId))
    .returning('id')
    .executeTakeFirst();
  if (!deleted) return { deleted: false, untagged: [] };
  const untagged = await db
    .updateTable('messages')
    .set({ labels: sql<number[]>`array_remove(labels, ${labelId}::bigint)` })
    .where('account_id', '=', accountId)
    .where(sql<boolean>`labels @> array[${labelId}::bigint]`)
    .returning(['folder_id', 'uid'])
    .execute();
  return { deleted: true, untagged };
}

/**
 * The ids of labels by name (compared without case), those missing made with `values` (an import's labels): inside
 * the caller's transaction, after its account lock, so no other writer of the account races it.
 */
export async function ensureLabelRows(
  trx: Db,
  accountId: number,
  names: string[],
  values: Omit<LabelValues, 'name' | 'search_content'>,
): Promise<Map<string, number>> {
  const wanted = [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];
  const ids = new Map<string, number>();
  if (!wanted.length) return ids;
  const found = await trx
    .selectFrom('labels')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where(
      sql<string>`lower(name)`,
      'in',
      wanted.map((n) => n.toLowerCase()),
    )
    .execute();
  for (const row of found) ids.set(row.name.toLowerCase(), row.id);
  const missing = wanted.filter((n) => !ids.has(n.toLowerCase()));
  if (missing.length) {
    const inserted = await trx
      .insertInto('labels')
      .values(missing.map((name) => ({ account_id: accountId, name, search_content: name, ...values })))
      .returning(['id', 'name'])
      .execute();
    for (const row of inserted) ids.set(row.name.toLowerCase(), row.id);
  }
  return ids;
}
