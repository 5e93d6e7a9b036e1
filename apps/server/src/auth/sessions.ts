import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, deleteRows } from '../core/db/index.js';
import type { EventBus } from '../core/events/index.js';
import type { Principal } from '../accounts/index.js';

export const SESSION_COOKIE = 'mr_sid';

/** The cookie holds a random token; the database keeps only its hash, so a leaked table opens nothing. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The id a session is known by outside its cookie (the event bus's "session ended"): the token's hash. */
export const sessionIdOf = hashToken;

export async function createSession(
  db: Db,
  principal: Principal,
  ttlMs: number,
  /** The provider's ID token, kept to end the provider's session at sign-out. */
  idToken: string | null = null,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlMs);
  await db
    .insertInto('sessions')
    .values({
      id: hashToken(token),
      account_id: principal.accountId,
      alias_email: principal.aliasEmail,
      actor_account_id: principal.actorAccountId ?? null,
      expires_at: expiresAt,
      id_token: idToken,
    })
    .execute();
  return { token, expiresAt };
}

export interface LiveSession {
  id: string;
  principal: Principal;
  expiresAt: Date;
  /** The provider's ID token of the sign-in (null: none). */
  idToken: string | null;
}

/** The session a token opens, while it has not expired. */
export async function findLiveSession(db: Db, token: string): Promise<LiveSession | undefined> {
  const id = hashToken(token);
  const row = await db
    .selectFrom('sessions')
    .select(['account_id', 'alias_email', 'actor_account_id', 'expires_at', 'id_token'])
    .where('id', '=', id)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return (
    row && {
      id,
      principal: {
        accountId: row.account_id,
        aliasEmail: row.alias_email,
        ...(row.actor_account_id ? { actorAccountId: row.actor_account_id } : {}),
      },
      expiresAt: new Date(row.expires_at),
      idToken: row.id_token,
    }
  );
}

export async function findSession(db: Db, token: string): Promise<Principal | undefined> {
  return (await findLiveSession(db, token))?.principal;
}

/** Ends the session; answers the provider's ID token it was signed in with, if any, for signing out there too. */
export async function deleteSession(db: Db, token: string): Promise<{ idToken: string | null } | undefined> {
  const row = await db
    .deleteFrom('sessions')
    .where('id', '=', hashToken(token))
    .returning('id_token')
    .executeTakeFirst();
  return row && { idToken: row.id_token };
}

/**
 * Ends a session (sign-out, or a new sign-in in the same browser): its row goes, then every
 * process is told, so the websockets it holds open for the session close at once. A bus that
 * cannot tell is logged; the sockets' periodic session re-check still closes them.
 */
export async function revokeSession(
  deps: { db: Db; events: EventBus; log: { warn(obj: object, msg: string): void } },
  token: string,
): Promise<{ idToken: string | null } | undefined> {
  const ended = await deleteSession(deps.db, token);
  try {
    await deps.events.endSession(hashToken(token));
  } catch (err) {
    deps.log.warn({ err }, 'announcing a session end failed');
  }
  return ended;
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  return deleteRows(db.deleteFrom('sessions').where('expires_at', '<=', new Date()));
}

/**
 * Which sessions to end together: an account's impersonation by one member, or the sessions held to an address —
 * `actorAccountId` undefined: all of them (the address is gone); null: the password sessions only (its password
 * changed); a member: that delegate's sessions in it (the delegation taken back).
 */
export type SessionSelection =
  | { kind: 'impersonation'; ownerAccountId: number; actorAccountId: number }
  | {
      kind: 'address';
      accountId: number;
      email: string;
      except?: string;
      actorAccountId?: number | null;
    };

/**
 * Ends every session of a selection at once (a revoked grant, a changed password): the rows go in the caller's
 * transaction; the event bus's session-ended, which closes their websockets in every process, is sent by `announce`
 * after the commit.
 */
export async function deleteSessionsWhere(db: Db, selection: SessionSelection): Promise<string[]> {
  let query = db.deleteFrom('sessions');
  if (selection.kind === 'impersonation') {
    query = query
      .where('account_id', '=', selection.ownerAccountId)
      .where('actor_account_id', '=', selection.actorAccountId);
  } else {
    query = query
      .where('account_id', '=', selection.accountId)
      .where(sql<string>`lower(alias_email)`, '=', selection.email.toLowerCase());
    if (selection.except) query = query.where('id', '!=', selection.except);
    if (selection.actorAccountId === null) query = query.where('actor_account_id', 'is', null);
    else if (selection.actorAccountId !== undefined)
      query = query.where('actor_account_id', '=', selection.actorAccountId);
  }
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/**
 * A delegation taken back (or its address gone): the delegates' sessions in the owner's address become their own
 * sessions again — the same cookie, now the delegate's own mailbox — instead of ending, so the delegate loses the
 * address and stays signed in (issue 28 item 23). `actorAccountId`: only that delegate's; undefined: every
 * delegate's. Answers their ids; `announceEndedSessions` then closes their websockets, which were the owner's.
 */
export async function returnDelegatedSessions(
  db: Db,
  selection: { accountId: number; email: string; actorAccountId?: number },
): Promise<string[]> {
  let query = db
    .updateTable('sessions')
    .set({ account_id: sql<number>`actor_account_id`, alias_email: null, actor_account_id: null })
    .where('account_id', '=', selection.accountId)
    .where(sql<string>`lower(alias_email)`, '=', selection.email.toLowerCase())
    .where('actor_account_id', 'is not', null);
  if (selection.actorAccountId !== undefined)
    query = query.where('actor_account_id', '=', selection.actorAccountId);
  const rows = await query.returning('id').execute();
  return rows.map((r) => r.id);
}

/** Tells every process the sessions ended (their websockets close); a bus that cannot tell is logged. */
export async function announceEndedSessions(
  deps: { events: EventBus; log: { warn(obj: object, msg: string): void } },
  ids: string[],
): Promise<void> {
  for (const id of ids) {
    try {
      await deps.events.endSession(id);
    } catch (err) {
      deps.log.warn({ err }, 'announcing a session end failed');
    }
  }
}

/**
 * Ends every session signed in by password access to `email` (an alias deleted, its access removed or its password
 * changed) and tells every process, so their websockets close at once. A delegate's session in it goes back to the
 * delegate's own mailbox (returnDelegatedSessions) rather than ending.
 */
export async function endAddressSessions(
  deps: { db: Db; events: EventBus; log: { warn(obj: object, msg: string): void } },
  accountId: number,
  email: string,
): Promise<number> {
  const returned = await returnDelegatedSessions(deps.db, { accountId, email });
  const ids = [...returned, ...(await deleteSessionsWhere(deps.db, { kind: 'address', accountId, email }))];
  await announceEndedSessions(deps, ids);
  return ids.length;
}
