import { sql } from 'kysely';
import type { Db, Trx } from '../core/db/index.js';

/** The SQL of the filters' tables (migration 016): scripts, delivery errors, vacation replies. */

/** How many delivery errors an account keeps: the filters screen shows the latest. */
export const keptErrors = 20;

export interface StoredScript {
  script: string;
  version: number;
}

/**
 * The account's script version, with its text only when the version is not `knownVersion` (delivery keeps the
 * compiled script of the version it last read: the 2 KB text of a 20-rule script is not sent again each message).
 */
export async function findScriptIfChanged(
  db: Db,
  accountId: number,
  knownVersion: number | undefined,
): Promise<{ version: number; script: string | null } | undefined> {
  return db
    .selectFrom('filter_scripts')
    .select((eb) => [
      'version',
      eb
        .case()
        .when('version', '=', knownVersion ?? -1)
        .then(sql<string | null>`null`)
        .else(eb.ref('script'))
        .end()
        .as('script'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
}

/** The account's active script, or undefined before its first save. */
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
 * Claims the sending of what a filter asked for a message the account kept no copy of: true unless the same bytes
 * were claimed within `windowSeconds` (a sender's retry). Drops the account's claims older than that first.
 */
export async function claimFilterSend(
  db: Db,
  accountId: number,
  blobHash: string,
  windowSeconds: number,
): Promise<boolean> {
  await sql`
    delete from filter_sends
    where account_id = ${accountId} and sent_at <= now() - make_interval(secs => ${windowSeconds}::int)`.execute(
    db,
  );
  const { rows } = await sql<{ claimed: boolean }>`
    insert into filter_sends (account_id, blob_hash) values (${accountId}, ${blobHash})
    on conflict (account_id, blob_hash) do nothing
    returning true as claimed`.execute(db);
  return rows.length > 0;
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

export type RedirectPeriod = 'hour' | 'day';

/**
 * Counts one redirect of the account in the current `period` (the clock hour or day of the database, so every process
 * agrees) and returns the period's count so far; a row of an earlier period starts again at 1, not yet notified.
 */
export async function countRedirect(trx: Trx, accountId: number, period: RedirectPeriod): Promise<number> {
  const { rows } = await sql<{ count: number }>`
    insert into filter_redirect_counts (account_id, period, starts_at, count)
    values (${accountId}::bigint, ${period}::text, date_trunc(${period}::text, now()), 1)
    on conflict (account_id, period) do update set
      count = case when filter_redirect_counts.starts_at = excluded.starts_at
        then filter_redirect_counts.count + 1 else 1 end,
      notified = filter_redirect_counts.notified and filter_redirect_counts.starts_at = excluded.starts_at,
      starts_at = excluded.starts_at
    returning count`.execute(trx);
  return rows[0]!.count;
}

/** Marks the account told of its cap for the current `period`: true only the first time in that period. */
export async function claimRedirectCapNotice(
  db: Db,
  accountId: number,
  period: RedirectPeriod,
): Promise<boolean> {
  const { rows } = await sql`
    update filter_redirect_counts set notified = true
    where account_id = ${accountId}::bigint and period = ${period}::text
      and starts_at = date_trunc(${period}::text, now()) and not notified
    returning account_id`.execute(db);
  return rows.length > 0;
}
