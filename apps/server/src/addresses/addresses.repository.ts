import { type Db, deleteRows } from '../core/db/index.js';

/**
 * SQL of `password_accesses` and `dkim_keys` (the aliases' is in aliases.repository.ts). Accounts and profiles
 * belong to accounts/ and are read through its index.
 */

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

/** Removes password access to the address; whether there was one. */
export async function deletePasswordAccess(db: Db, accountId: number, email: string): Promise<boolean> {
  return (
    (await deleteRows(
      db
        .deleteFrom('password_accesses')
        .where('email', '=', email.toLowerCase())
        .where('account_id', '=', accountId),
    )) > 0
  );
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
