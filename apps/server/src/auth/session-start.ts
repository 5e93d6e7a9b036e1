import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../core/db/index.js';
import type { EventBus } from '../core/events/index.js';
import { cookieOptions } from '../http/index.js';
import { LANG_COOKIE } from '@mailroom/protocol';
import { getSettings, type Principal } from '../accounts/index.js';
import { createSession, findLiveSession, revokeSession, SESSION_COOKIE } from './sessions.js';

export const IS_LOGGED_COOKIE = 'isLogged';
const LANG_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

export interface SessionDeps {
  config: Config;
  db: Db;
  events: EventBus;
}

/**
 * Issues a fresh session id for `principal` at every sign-in (and ends the one the browser had). The member's saved
 * language (settings, "on every device you sign in on") then wins over the browser's lang cookie: the cookie is set to
 * it, so the app opens in it on a browser that never saw it. A session held to one address keeps the browser's.
 */
export async function startSession(
  deps: SessionDeps,
  http: { request: FastifyRequest; reply: FastifyReply },
  principal: Principal,
  options: { idToken?: string | null; ttlMs?: number } = {},
): Promise<void> {
  const { config, db } = deps;
  const previous = http.request.cookies[SESSION_COOKIE];
  if (previous) await revokeSession({ ...deps, log: http.request.log }, previous);
  const ttlMs = options.ttlMs ?? config.sessionTtlMs;
  const { token } = await createSession(db, principal, ttlMs, options.idToken ?? null);
  setSessionCookies(config, http.reply, token, ttlMs);
  if (!principal.aliasEmail) {
    const { language } = await getSettings(db, principal.accountId);
    if (language)
      http.reply.setCookie(
        LANG_COOKIE,
        language,
        cookieOptions(config, { httpOnly: false, maxAge: LANG_COOKIE_MAX_AGE_S }),
      );
  }
}

/**
 * A session for `principal` that ends when the request's current one would have and keeps its provider ID token (so
 * signing out still ends the provider's session): the switch into and out of impersonation. Written with `db`, which
 * may be the caller's transaction (the grant it checked stays locked until the row is in); `adoptSession` then puts
 * it in the browser.
 */
export async function createSwitchedSession(
  db: Db,
  config: Config,
  request: FastifyRequest,
  principal: Principal,
): Promise<SwitchedSession> {
  const current = await findLiveSession(db, request.cookies[SESSION_COOKIE] ?? '');
  const ttlMs = Math.max(1000, current ? current.expiresAt.getTime() - Date.now() : config.sessionTtlMs);
  const { token } = await createSession(db, principal, ttlMs, current?.idToken ?? null);
  return { token, ttlMs };
}

export interface SwitchedSession {
  token: string;
  ttlMs: number;
}

/** Ends the browser's previous session and gives it the switched one. */
export async function adoptSession(
  deps: SessionDeps,
  http: { request: FastifyRequest; reply: FastifyReply },
  session: SwitchedSession,
): Promise<void> {
  const previous = http.request.cookies[SESSION_COOKIE];
  if (previous) await revokeSession({ ...deps, log: http.request.log }, previous);
  setSessionCookies(deps.config, http.reply, session.token, session.ttlMs);
}

function setSessionCookies(config: Config, reply: FastifyReply, token: string, ttlMs: number) {
  const maxAge = Math.floor(ttlMs / 1000);
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(config, { maxAge }));
  reply.setCookie(IS_LOGGED_COOKIE, '1', cookieOptions(config, { maxAge, httpOnly: false }));
}
