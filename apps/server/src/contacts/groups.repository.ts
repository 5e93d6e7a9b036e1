import { sql } from 'kysely';
import { countRows, type Db, ownRow, type Trx } from '../core/db/index.js';

export interface GroupRow {
  id: number;
  name: string;
}

/** The account's groups by name, each with how many contacts it holds. */
export async function listGroups(db: Db, accountId: number): Promise<(GroupRow & { count: number })[]> {
  const rows = await db
    .selectFrom('contact_groups as g')
    .leftJoin('contact_group_members as m', 'm.group_id', 'g.id')
    .select(['g.id', 'g.name', (eb) => eb.fn.count<number>('m.contact_id').as('count')])
    .where('g.account_id', '=', accountId)
    .groupBy(['g.id', 'g.name'])
    .orderBy(sql`lower(g.name)`)
    .orderBy('g.id')
    .execute();
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}

/** The account's group, or undefined for an unknown id or another account's. */
export async function findGroup(db: Db, accountId: number, groupId: number): Promise<GroupRow | undefined> {
  return db
    .selectFrom('contact_groups')
    .select(['id', 'name'])
    .where(ownRow(groupId, accountId))
    .executeTakeFirst();
}

/** The account's group of this name in any case (names are unique so), other than `exceptId`. */
export async function findGroupByName(
  db: Db,
  accountId: number,
  name: string,
  exceptId?: number,
): Promise<GroupRow | undefined> {
  let query = db
    .selectFrom('contact_groups')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where(sql<boolean>`lower(name) = lower(${name}::text)`);
  if (exceptId !== undefined) query = query.where('id', '<>', exceptId);
  return query.executeTakeFirst();
}

export async function insertGroup(trx: Trx, accountId: number, name: string): Promise<GroupRow> {
  return trx
    .insertInto('contact_groups')
    .values({ account_id: accountId, name })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

export async function renameGroup(
  trx: Trx,
  accountId: number,
  groupId: number,
  name: string,
): Promise<boolean> {
  const row = await trx
    .updateTable('contact_groups')
    .set({ name })
    .where(ownRow(groupId, accountId))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteGroup(trx: Trx, accountId: number, groupId: number): Promise<boolean> {
  const row = await trx
    .deleteFrom('contact_groups')
    .where(ownRow(groupId, accountId))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Puts contacts into a group (those already in it stay); returns how many joined. */
export async function addMembers(trx: Trx, groupId: number, contactIds: number[]): Promise<number> {
  if (!contactIds.length) return 0;
  const added = await trx
    .insertInto('contact_group_members')
    .values(contactIds.map((contact_id) => ({ group_id: groupId, contact_id })))
    .onConflict((oc) => oc.columns(['group_id', 'contact_id']).doNothing())
    .returning('contact_id')
    .execute();
  return added.length;
}

export async function removeMembers(trx: Trx, groupId: number, contactIds: number[]): Promise<number> {
  if (!contactIds.length) return 0;
  const removed = await trx
    .deleteFrom('contact_group_members')
    .where('group_id', '=', groupId)
    .where('contact_id', 'in', contactIds)
    .returning('contact_id')
    .execute();
  return removed.length;
}

/** The contacts of a group, by id. */
export async function memberIds(db: Db, groupId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('contact_group_members')
    .select('contact_id')
    .where('group_id', '=', groupId)
    .orderBy('contact_id')
    .execute();
  return rows.map((r) => r.contact_id);
}

/** How many groups the account has. */
export async function countGroups(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('contact_groups').where('account_id', '=', accountId));
}
