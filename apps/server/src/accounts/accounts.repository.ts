import { sql } from 'kysely';
import { defaultSettings, type PassportLevel, type Settings } from '@mailroom/protocol';
import type { Db, Trx } from '../core/db/index.js';

export interface AccountRow {
  id: number;
  member_id: string;
  name: string;
  email: string;
  settings: Settings;
  quota_limit_bytes: number;
  quota_used_bytes: number;
  first_name: string;
  last_name: string;
}

const accountColumns = [
  'id',
  'member_id',
  'name',
  'email',
  'settings',
  'quota_limit_bytes',
  'quota_used_bytes',
  'first_name',
  'last_name',
] as const;

/**
 * Settings are stored as JSON as they were saved: a row saved before a setting existed lacks it, so every read
 * fills in the defaults.
 */
function withDefaults(row: AccountRow | undefined): AccountRow | undefined {
  return row && { ...row, settings: { ...defaultSettings, ...row.settings } };
}

/** One account found by the condition, its settings filled in (withDefaults). */
function findAccount(
  db: Db,
  where: (q: ReturnType<typeof selectAccounts>) => ReturnType<typeof selectAccounts>,
): Promise<AccountRow | undefined> {
  return where(selectAccounts(db)).executeTakeFirst().then(withDefaults);
}

const selectAccounts = (db: Db) => db.selectFrom('accounts').select(accountColumns);

export function findAccountById(db: Db, id: number): Promise<AccountRow | undefined> {
  return findAccount(db, (q) => q.where('id', '=', id));
}

export function findAccountByMemberId(db: Db, memberId: string): Promise<AccountRow | undefined> {
  return findAccount(db, (q) => q.where('member_id', '=', memberId));
}

/** The account whose primary address this is, case-insensitively. */
export function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  return findAccount(db, (q) => q.where(sql`lower(email)`, '=', email.toLowerCase()));
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

/** Merges the settings given into the stored ones in one statement; the stored settings after it. */
export async function mergeAccountSettings(
  db: Db,
  accountId: number,
  update: Partial<Settings>,
): Promise<Partial<Settings> | undefined> {
  const row = await db
    .updateTable('accounts')
    .set({ settings: sql<string>`settings || ${JSON.stringify(update)}::jsonb` })
    .where('id', '=', accountId)
    .returning('settings')
    .executeTakeFirst();
  return row?.settings;
}

export async function writePassportLevel(db: Db, accountId: number, level: PassportLevel): Promise<void> {
  await db.updateTable('accounts').set({ passport_level: level }).where('id', '=', accountId).execute();
}

export async function readPassportLevel(db: Db, accountId: number): Promise<PassportLevel | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select('passport_level')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.passport_level;
}

/** Sets the member's first and last name and the display name made of them; false when there is no such account. */
export async function updateAccountNames(
  db: Db | Trx,
  accountId: number,
  names: { firstName: string; lastName: string; name: string },
): Promise<boolean> {
  const result = await db
    .updateTable('accounts')
    .set({ first_name: names.firstName, last_name: names.lastName, name: names.name })
    .where('id', '=', accountId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
