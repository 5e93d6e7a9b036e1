import { AUTH_LOG_DAYS, type AuthLogQuery, type AuthLogResponse, type AuthMethod } from '@mailroom/protocol';
import type { Db } from '../core/db/index.js';
import { authLogPage, deleteAuthLogBefore, insertAuthLog } from './auth-log.repository.js';

/** Longest user agent kept: enough to tell browsers apart, not a place to store a megabyte. */
const USER_AGENT_MAX = 300;

/** Where a sign-in came from: the client's IP as Fastify sees it (TRUST_PROXY decides) and its user agent. */
export interface SignInClient {
  ip: string;
  userAgent: string;
}

export function signInClientOf(request: {
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}): SignInClient {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip,
    userAgent: (Array.isArray(agent) ? agent.join(' ') : (agent ?? '')).slice(0, USER_AGENT_MAX),
  };
}

/** One line of an account's sign-in log. */
export interface SignInEntry {
  accountId: number;
  method: AuthMethod;
  success: boolean;
  /** The address signed in as (null: the account's own SSO sign-in names none). */
  address: string | null;
  /** For impersonation: the other member. */
  memberId?: string | null;
}

/** Records sign-ins and failed attempts, each in the log of the account it concerns. */
export async function recordSignIns(db: Db, client: SignInClient, entries: SignInEntry[]): Promise<void> {
  await insertAuthLog(
    db,
    entries.map((e) => ({
      account_id: e.accountId,
      at: new Date(),
      ip: client.ip,
      user_agent: client.userAgent,
      method: e.method,
      success: e.success,
      address: e.address,
      member_id: e.memberId ?? null,
    })),
  );
}

/** GET user/settings/security/auth-log: the account's log, newest first. */
export async function listAuthLog(
  db: Db,
  accountId: number,
  query: { page: number; limit: number } & AuthLogQuery,
): Promise<AuthLogResponse> {
  const { rows, total } = await authLogPage(db, accountId, {
    offset: (query.page - 1) * query.limit,
    limit: query.limit,
  });
  return {
    entries: rows.map((r) => ({
      at: new Date(r.at).toISOString(),
      ip: r.ip,
      user_agent: r.user_agent,
      method: r.method,
      success: r.success,
      address: r.address,
      member_id: r.member_id,
    })),
    total,
    page: query.page,
    limit: query.limit,
  };
}

/** The recurring sweep: entries older than AUTH_LOG_DAYS go. */
export function deleteOldAuthLog(db: Db, now = new Date()): Promise<number> {
  return deleteAuthLogBefore(db, new Date(now.getTime() - AUTH_LOG_DAYS * 86_400_000));
}
