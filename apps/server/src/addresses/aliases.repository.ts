import { sql } from 'kysely';
import type { AliasKind, AliasStatus } from '@mailroom/protocol';
import {
  type AddressKind,
  type AddressStatus,
  countRows,
  type Db,
  ownRow,
  type Trx,
} from '../core/db/index.js';
import { hasPasswordAccess } from './password-access.query.js';

/**
 * SQL of `aliases` and `alias_access_changes`. An alias is active when it succeeded and is not deleted: only an
 * active alias receives mail, sends, lists in the account and signs in. A deleted alias keeps its row (its mail
 * points at it); its name is free again, as a failed one's is.
 */

export interface AliasRow {
  id: number;
  account_id: number;
  email: string;
  kind: AddressKind;
  status: AddressStatus;
  invoice_id: number | null;
  created_at: Date;
}

const aliasColumns = ['id', 'account_id', 'email', 'kind', 'status', 'invoice_id', 'created_at'] as const;

/** The account's active aliases, oldest first. */
export function listAliases(db: Db, accountId: number) {
  return db
    .selectFrom('aliases')
    .select(['id', 'email'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'succeed')
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Every alias of the account that is not deleted, whatever its status, oldest first, with its password access. */
export function listAccountAliases(
  db: Db,
  accountId: number,
  kind?: AliasKind,
): Promise<(AliasRow & { password_access: boolean })[]> {
  let query = db
    .selectFrom('aliases')
    .select(aliasColumns.map((c) => `aliases.${c}` as const))
    .select(hasPasswordAccess.as('password_access'))
    .where('aliases.account_id', '=', accountId)
    .where('aliases.deleted_at', 'is', null);
  // The aliases screen's rows: addresses on domains are the domains screen's.
  query = kind ? query.where('aliases.kind', '=', kind) : query.where('aliases.kind', 'in', ['free', 'paid']);
  return query.orderBy('aliases.id').execute() as Promise<(AliasRow & { password_access: boolean })[]>;
}

/** The active alias with this address, case-insensitively, whoever owns it. */
export function findAliasByEmail(db: Db, email: string) {
  return db
    .selectFrom('aliases')
    .select(['id', 'account_id', 'email'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('status', '=', 'succeed')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Whether the id is one of the account's aliases (a deleted one too: its mail is still the owner's to narrow to). */
export async function aliasBelongsTo(db: Db, accountId: number, aliasId: number): Promise<boolean> {
  const row = await db
    .selectFrom('aliases')
    .select('id')
    .where(ownRow(aliasId, accountId))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether an alias that is not deleted nor failed holds the name (case-insensitively). */
export async function isAliasNameTaken(db: Db, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('aliases')
    .select('id')
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('deleted_at', 'is', null)
    .where('status', '<>', 'failed')
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the account has a free alias (not deleted, not failed), or a paid one unpaid or being paid. */
export async function hasAliasHolding(db: Db, accountId: number, kind: AliasKind): Promise<boolean> {
  let query = db
    .selectFrom('aliases')
    .select('id')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('deleted_at', 'is', null);
  query =
    kind === 'free'
      ? query.where('status', '<>', 'failed')
      : query.where('status', 'in', ['unpaid', 'paying']);
  return (await query.executeTakeFirst()) !== undefined;
}

export function insertAlias(
  trx: Trx,
  values: { accountId: number; email: string; kind: AliasKind; status: AliasStatus },
): Promise<AliasRow> {
  return trx
    .insertInto('aliases')
    .values({ account_id: values.accountId, email: values.email, kind: values.kind, status: values.status })
    .returning(aliasColumns)
    .executeTakeFirstOrThrow();
}

/** The account's alias (not deleted): never another account's id or a deleted one. */
const accountAlias = (db: Db, accountId: number, aliasId: number) =>
  db
    .selectFrom('aliases')
    .select(aliasColumns)
    .where(ownRow(aliasId, accountId))
    .where('deleted_at', 'is', null);

/** The account's alias (not deleted), its row locked; undefined for another account's id or a deleted one. */
export function lockAccountAlias(
  trx: Trx,
  accountId: number,
  aliasId: number,
): Promise<AliasRow | undefined> {
  return accountAlias(trx, accountId, aliasId).forUpdate().executeTakeFirst();
}

/** The account's active alias with this address, its row locked. */
export function lockActiveAliasByEmail(
  trx: Trx,
  accountId: number,
  email: string,
): Promise<AliasRow | undefined> {
  return trx
    .selectFrom('aliases')
    .select(aliasColumns)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('account_id', '=', accountId)
    .where('status', '=', 'succeed')
    .where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

/** A paid alias by id (the subject of its invoice), its row locked. */
export function lockPaidAlias(trx: Trx, aliasId: number): Promise<AliasRow | undefined> {
  return trx
    .selectFrom('aliases')
    .select(aliasColumns)
    .where('id', '=', aliasId)
    .where('kind', '=', 'paid')
    .forUpdate()
    .executeTakeFirst();
}

export function findAccountAlias(db: Db, accountId: number, aliasId: number): Promise<AliasRow | undefined> {
  return accountAlias(db, accountId, aliasId).executeTakeFirst();
}

export async function setAliasInvoice(trx: Trx, aliasId: number, invoiceId: number): Promise<void> {
  await trx.updateTable('aliases').set({ invoice_id: invoiceId }).where('id', '=', aliasId).execute();
}

/**
 * A failed paid alias made active after all (its invoice paid late), if it is not deleted and its name is still free:
 * the account it belongs to, or undefined when it cannot be.
 */
export async function reviveFailedAlias(trx: Trx, aliasId: number): Promise<number | undefined> {
  const row = await trx
    .updateTable('aliases')
    .set({ status: 'succeed' })
    .where('id', '=', aliasId)
    .where('kind', '=', 'paid')
    .where('status', '=', 'failed')
    .where('deleted_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('aliases as other')
            .select('other.id')
            .whereRef('other.id', '<>', 'aliases.id')
            .where((eb) => eb(eb.fn('lower', ['other.email']), '=', eb.fn('lower', ['aliases.email'])))
            .where('other.deleted_at', 'is', null)
            .where('other.status', '<>', 'failed'),
        ),
      ),
    )
    .returning('account_id')
    .executeTakeFirst();
  return row?.account_id;
}

export async function setAliasStatus(trx: Trx, aliasId: number, status: AliasStatus): Promise<void> {
  await trx.updateTable('aliases').set({ status }).where('id', '=', aliasId).execute();
}

export async function markAliasDeleted(trx: Trx, aliasId: number): Promise<void> {
  await trx.updateTable('aliases').set({ deleted_at: new Date() }).where('id', '=', aliasId).execute();
}

/** Changes of the alias's password access since `since`; older ones are dropped on the way. */
export async function countAccessChanges(trx: Trx, aliasId: number, since: Date): Promise<number> {
  await trx
    .deleteFrom('alias_access_changes')
    .where('alias_id', '=', aliasId)
    .where('changed_at', '<', since)
    .execute();
  return countRows(trx.selectFrom('alias_access_changes').where('alias_id', '=', aliasId));
}

export async function recordAccessChange(trx: Trx, aliasId: number, at: Date): Promise<void> {
  await trx.insertInto('alias_access_changes').values({ alias_id: aliasId, changed_at: at }).execute();
}
