import { sql } from 'kysely';
import type { Db, Trx } from '../core/db/index.js';

/** The SQL of the filters' tables (migration 016): scripts, delivery errors, vacation replies. */

/** How many delivery errors an account keeps: the filters screen shows the latest. */
export const keptErrors = 20;

export interface StoredScript {
  script: string;
  version: number;
}

/** The account's active script, or undefined before its first save. One indexed read: it runs for every delivery. */
export async function findScript(db: Db, accountId: number): Promise<StoredScript | undefined> {
  return db
    .selectFrom('filter_scripts')
    .select(['script', 'version'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/**
 * Writes the account's script and bumps its version (the first save makes version 1; none is version 0). With
 * `expectedVersion`, only over that version: null when another save came first.
 */
export async function writeScript(
  trx: Trx,
  accountId: number,
  script: string,
  expectedVersion: number | undefined,
): Promise<number | null> {
  const expected = expectedVersion ?? null;
  const { rows } = await sql<{ version: number }>`
    insert into filter_scripts (account_id, script, version)
    select ${accountId}::bigint, ${script}::text, 1
    where ${expected}::int is null or ${expected}::int = 0
      or exists (select 1 from filter_scripts where account_id = ${accountId}::bigint)
    on conflict (account_id) do update
      set script = excluded.script, version = filter_scripts.version + 1, updated_at = now()
      where ${expected}::int is null or filter_scripts.version = ${expected}::int
    returning version`.execute(trx);
  return rows[0]?.version ?? null;
}

export async function listErrors(db: Db, accountId: number) {
  return db
    .selectFrom('filter_errors')
    .select(['at', 'filter', 'message'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(keptErrors)
    .execute();
}

/** Records a delivery error and forgets all but the newest of the account's. */
export async function insertError(trx: Trx, accountId: number, filter: string | null, message: string) {
  await trx.insertInto('filter_errors').values({ account_id: accountId, filter, message }).execute();
  await sql`
    delete from filter_errors
    where account_id = ${accountId}
      and id not in (select id from filter_errors where account_id = ${accountId} order by id desc limit ${keptErrors})
  `.execute(trx);
}

/**
 * Claims the right to send a vacation reply to a sender for a handle: true (and the time remembered) unless one
 * went out less than `seconds` ago. One statement, so two deliveries at once cannot both claim it.
 */
export async function claimVacationReply(
  db: Db,
  accountId: number,
  sender: string,
  handle: string,
  seconds: number,
): Promise<boolean> {
  const { rows } = await sql<{ replied_at: Date }>`
    insert into vacation_replies (account_id, sender, handle, replied_at)
    values (${accountId}::bigint, ${sender}::text, ${handle}::text, now())
    on conflict (account_id, sender, handle) do update set replied_at = now()
      where vacation_replies.replied_at <= now() - make_interval(secs => ${seconds}::int)
    returning replied_at`.execute(db);
  return rows.length > 0;
}
