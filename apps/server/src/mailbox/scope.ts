import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * The part of a mailbox a request sees. The owner sees all of it; a session with password access
 * to one address (SPEC §6) sees only mail delivered to that address: an alias (its id) or the
 * primary address (`aliasId` null, mail to no alias). An address that is no longer the account's
 * sees nothing. The owner's own narrowing of a list to one address (`a_id`) is the same shape.
 */
export type Scope = { kind: 'all' } | { kind: 'address'; aliasId: number | null } | { kind: 'none' };

export const wholeMailbox: Scope = { kind: 'all' };

/** The one SQL condition for a scope, on the `alias_id` column of `table` (a messages row). */
export function scopeCondition(scope: Scope, table = 'messages'): RawBuilder<SqlBool> {
  const column = sql.ref(`${table}.alias_id`);
  if (scope.kind === 'all') return sql<SqlBool>`true`;
  if (scope.kind === 'none') return sql<SqlBool>`false`;
  return scope.aliasId === null
    ? sql<SqlBool>`${column} is null`
    : sql<SqlBool>`${column} = ${scope.aliasId}`;
}

/** Whether a message delivered to `aliasId` (null: the primary address) is in the scope. */
export function inScope(scope: Scope, aliasId: number | null): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'none') return false;
  return scope.aliasId === aliasId;
}

/**
 * Counting what an address scope sees without scanning the folder: an alias counts its own rows (its partial index);
 * the primary address (mail to no alias) counts the alias rows, the (rare) cheap side, and takes them off the
 * folder's counter. `aliasRowsCondition` is what to count, `addressCount` turns that count into the scope's.
 */
export function aliasRowsCondition(
  scope: { aliasId: number | null },
  table = 'messages',
): RawBuilder<SqlBool> {
  const column = sql.ref(`${table}.alias_id`);
  return scope.aliasId === null
    ? sql<SqlBool>`${column} is not null`
    : sql<SqlBool>`${column} = ${scope.aliasId}`;
}

/** The scope's count from the rows `aliasRowsCondition` counted and the folder's own counter. */
export function addressCount(
  scope: { aliasId: number | null },
  folderCount: number,
  counted: number,
): number {
  return scope.aliasId === null ? Math.max(0, folderCount - counted) : counted;
}
