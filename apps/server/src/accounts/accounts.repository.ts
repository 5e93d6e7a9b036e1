import { sql } from 'kysely';
import type { Settings } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';

export interface AccountRow {
  id: number;
  member_id: string;
  name: string;
  email: string;
  settings: Settings;
  quota_limit_bytes: number;
  quota_used_bytes: number;
}

const accountColumns = [
  'id',
  'member_id',
  'name',
  'email',
  'settings',
  'quota_limit_bytes',
  'quota_used_bytes',
] as const;

export function findAccountById(db: Db, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').select(accountColumns).where('id', '=', id).executeTakeFirst();
}

export function findAccountByMemberId(db: Db, memberId: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .select(accountColumns)
    .where('member_id', '=', memberId)
    .executeTakeFirst();
}

/** The account whose primary address this is, case-insensitively. */
export function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return db
    .selectFrom('accounts')
    .select(accountColumns)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Inserts the account unless one exists for the member ID; returns the new id or undefined. */
export async function insertAccount(
  db: Db,
  values: { memberId: string; name: string; email: string; settings: Settings; quotaLimitBytes: number },
): Promise<number | undefined> {
  const row = await db
    .insertInto('accounts')
    .values({
      member_id: values.memberId,
      name: values.name,
      email: values.email,
      settings: JSON.stringify(values.settings),
      quota_limit_bytes: values.quotaLimitBytes,
    })
    .onConflict((oc) => oc.column('member_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function updateAccountSettings(db: Db, accountId: number, settings: Settings): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ settings: JSON.stringify(settings) })
    .where('id', '=', accountId)
    .execute();
}

export function listProfiles(db: Db, accountId: number) {
  return db
    .selectFrom('profiles')
    .select(['id', 'name', 'email', 'signature', 'is_default'])
    .where('account_id', '=', accountId)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
}

export async function insertProfile(
  db: Db,
  values: { accountId: number; name: string; email: string; isDefault: boolean },
): Promise<void> {
  await db
    .insertInto('profiles')
    .values({
      account_id: values.accountId,
      name: values.name,
      email: values.email,
      is_default: values.isDefault,
    })
    .execute();
}
