import type { Db } from './db/index.js';

export async function findServerKey(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('server_keys').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/** Inserts the key unless a row of that name exists (another process won), then returns the stored one. */
export async function insertOrGetServerKey(db: Db, name: string, value: string): Promise<string> {
  await db
    .insertInto('server_keys')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_keys')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
