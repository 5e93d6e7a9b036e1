import { type Db, deleteRows, type Trx } from '../core/db/index.js';

export type GrantKind = 'mailbox' | 'ba';

export interface GrantRow {
  member_id: string;
  granted_at: Date;
}

/** The owner's grants of one kind, oldest first. */
export function grantsOf(db: Db, accountId: number, kind: GrantKind): Promise<GrantRow[]> {
  return db
    .selectFrom('access_grants')
    .select(['member_id', 'granted_at'])
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .orderBy('granted_at')
    .orderBy('member_id')
    .execute();
}

/** Grants once; granting again keeps the first grant's time. */
export async function insertGrant(
  db: Db,
  accountId: number,
  kind: GrantKind,
  memberId: string,
): Promise<void> {
  await db
    .insertInto('access_grants')
    .values({ account_id: accountId, kind, member_id: memberId })
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'member_id']).doNothing())
    .execute();
}

export async function deleteGrant(
  trx: Trx,
  accountId: number,
  kind: GrantKind,
  memberId: string,
): Promise<boolean> {
  return (
    (await deleteRows(
      trx
        .deleteFrom('access_grants')
        .where('account_id', '=', accountId)
        .where('kind', '=', kind)
        .where('member_id', '=', memberId),
    )) > 0
  );
}

/**
 * Whether the owner has granted the member `kind`, with the grant's row locked: an impersonation opened under the
 * lock cannot slip past a revocation (which deletes the row, then the grantee's sessions, in one transaction).
 */
export async function lockGrant(
  trx: Trx,
  accountId: number,
  kind: GrantKind,
  memberId: string,
): Promise<boolean> {
  const row = await trx
    .selectFrom('access_grants')
    .select('member_id')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('member_id', '=', memberId)
    .forUpdate()
    .executeTakeFirst();
  return row !== undefined;
}

/** The accounts that granted the member `kind`, with their member ID, primary address and name, oldest grant first. */
export function grantorsOf(
  db: Db,
  memberId: string,
  kind: GrantKind,
): Promise<{ account_id: number; member_id: string; email: string; name: string }[]> {
  return db
    .selectFrom('access_grants as g')
    .innerJoin('accounts as a', 'a.id', 'g.account_id')
    .select(['a.id as account_id', 'a.member_id', 'a.email', 'a.name'])
    .where('g.member_id', '=', memberId)
    .where('g.kind', '=', kind)
    .orderBy('g.granted_at')
    .orderBy('a.id')
    .execute();
}
