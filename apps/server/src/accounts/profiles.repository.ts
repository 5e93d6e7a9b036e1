import { countRows, type Db, ownRow, type Trx } from '../core/db/index.js';

export interface ProfileRow {
  id: number;
  name: string;
  email: string;
  signature: string;
  is_default: boolean;
}

const profileColumns = ['id', 'name', 'email', 'signature', 'is_default'] as const;

/** The account's profiles, the default first, then by age. */
export function listProfiles(db: Db, accountId: number): Promise<ProfileRow[]> {
  return db
    .selectFrom('profiles')
    .select(profileColumns)
    .where('account_id', '=', accountId)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
}

/** The account's profile, locked for the change, or undefined for an unknown id or another account's. */
export function lockProfile(trx: Trx, accountId: number, id: number): Promise<ProfileRow | undefined> {
  return trx
    .selectFrom('profiles')
    .select(profileColumns)
    .where(ownRow(id, accountId))
    .forUpdate()
    .executeTakeFirst();
}

export async function insertProfile(
  db: Db,
  values: { accountId: number; name: string; email: string; signature?: string; isDefault: boolean },
): Promise<number> {
  const row = await db
    .insertInto('profiles')
    .values({
      account_id: values.accountId,
      name: values.name,
      email: values.email,
      signature: values.signature ?? '',
      is_default: values.isDefault,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateProfileRow(
  trx: Trx,
  accountId: number,
  id: number,
  values: Partial<Pick<ProfileRow, 'name' | 'email' | 'signature' | 'is_default'>>,
): Promise<void> {
  await trx.updateTable('profiles').set(values).where(ownRow(id, accountId)).execute();
}

/**
 * Takes the default flag off the account's profiles (the unique index allows one default per account, checked
 * statement by statement, so the old one loses it before the new one gets it).
 */
export async function clearDefaultProfile(trx: Trx, accountId: number): Promise<void> {
  await trx
    .updateTable('profiles')
    .set({ is_default: false })
    .where('account_id', '=', accountId)
    .where('is_default', '=', true)
    .execute();
}

export async function deleteProfileRow(trx: Trx, accountId: number, id: number): Promise<void> {
  await trx.deleteFrom('profiles').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** The account's oldest profile (the one that becomes the default when the default is deleted). */
export function oldestProfile(trx: Trx, accountId: number): Promise<{ id: number } | undefined> {
  return trx
    .selectFrom('profiles')
    .select('id')
    .where('account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function countProfiles(trx: Trx, accountId: number): Promise<number> {
  return countRows(trx.selectFrom('profiles').where('account_id', '=', accountId));
}

/** Profiles still named as the account was (`from`) take its new display name (`to`); renamed ones keep theirs. */
export async function renameProfilesNamed(
  trx: Trx,
  accountId: number,
  from: string,
  to: string,
): Promise<void> {
  await trx
    .updateTable('profiles')
    .set({ name: to })
    .where('account_id', '=', accountId)
    .where('name', '=', from)
    .execute();
}
