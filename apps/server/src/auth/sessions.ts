import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../core/db/index.js';
import type { Principal } from '../accounts/index.js';

export const SESSION_COOKIE = 'mr_sid';

/** The cookie holds a random token; the database keeps only its hash, so a leaked table opens nothing. */
const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');

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
      expires_at: expiresAt,
      id_token: idToken,
    })
    .execute();
  return { token, expiresAt };
}

export async function findSession(db: Db, token: string): Promise<Principal | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['account_id', 'alias_email'])
    .where('id', '=', hashToken(token))
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row && { accountId: row.account_id, aliasEmail: row.alias_email };
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

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
