import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';

/**
 * SQL of the tables this area owns: `aliases`, `password_accesses`, `dkim_keys`. Accounts and
 * profiles belong to accounts/ and are read through its index.
 */

export function listAliases(db: Db, accountId: number) {
  return db
    .selectFrom('aliases')
    .select(['id', 'email'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

/** The alias with this address, case-insensitively, whoever owns it. */
export function findAliasByEmail(db: Db, email: string) {
  return db
    .selectFrom('aliases')
    .select(['id', 'account_id', 'email'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function aliasBelongsTo(db: Db, accountId: number, aliasId: number): Promise<boolean> {
  const row = await db
    .selectFrom('aliases')
    .select('id')
    .where('id', '=', aliasId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function upsertPasswordAccess(
  db: Db,
  values: { email: string; accountId: number; passwordHash: string },
): Promise<void> {
  await db
    .insertInto('password_accesses')
    .values({ email: values.email, account_id: values.accountId, password_hash: values.passwordHash })
    .onConflict((oc) =>
      oc.column('email').doUpdateSet({ password_hash: values.passwordHash, account_id: values.accountId }),
    )
    .execute();
}

export function findPasswordAccess(db: Db, email: string) {
  return db
    .selectFrom('password_accesses')
    .select(['account_id', 'password_hash', 'email'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function upsertDkimKey(
  db: Db,
  values: { domain: string; selector: string; privateKey: string },
): Promise<void> {
  await db
    .insertInto('dkim_keys')
    .values({ domain: values.domain, selector: values.selector, private_key: values.privateKey })
    .onConflict((oc) =>
      oc.column('domain').doUpdateSet({ selector: values.selector, private_key: values.privateKey }),
    )
    .execute();
}

export function findDkimKey(db: Db, domain: string) {
  return db
    .selectFrom('dkim_keys')
    .select(['domain', 'selector', 'private_key'])
    .where('domain', '=', domain.toLowerCase())
    .executeTakeFirst();
}
