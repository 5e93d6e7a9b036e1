import {
  sql,
  type DeleteQueryBuilder,
  type DeleteResult,
  type Expression,
  type ExpressionBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';

/**
 * `id = … AND account_id = …`: one account's own row of a table that has both columns (one table, no join). Another
 * account's id matches nothing, so it is never told apart from an id that does not exist.
 */
export function ownRow(id: number, accountId: number) {
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> =>
    eb.and([eb(sql.ref('id'), '=', id), eb(sql.ref('account_id'), '=', accountId)]);
}

/** How many rows the query's FROM and WHERE find: count(*) as a number (Postgres answers a bigint as text). */
export async function countRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number((row as unknown as { n: string | number }).n);
}

/** Runs a DELETE and answers how many rows it removed. */
export async function deleteRows<DB, TB extends keyof DB>(
  query: DeleteQueryBuilder<DB, TB, DeleteResult>,
): Promise<number> {
  return Number((await query.executeTakeFirst()).numDeletedRows);
}
