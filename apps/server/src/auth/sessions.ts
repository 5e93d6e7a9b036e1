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

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', hashToken(token)).execute();
}

export async function deleteExpiredSessions(db: Db): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', new Date()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
