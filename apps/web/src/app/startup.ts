import { create } from 'zustand';
import { IS_LOGGED_COOKIE, REDIRECT_COOKIE, REDIRECT_COOKIE_MAX_AGE_S } from '@mailroom/protocol';
import { isUnauthorized } from '../api/client';
import { readCookie, writeCookie } from '../lib/cookies';

/** SPEC §4 start-up status. */
export type StartupStatus = 'empty' | 'success' | 'failed' | 'load_frame';

export interface StartupPart {
  status: 'pending' | 'success' | 'error';
  error: unknown;
  /** Set once the part has loaded; a later refetch that fails keeps it (and its status turns to error). */
  data?: unknown;
}

export interface StartupInput {
  /** user (GET /auth/access), account (GET /api/v1/user/account) and rid (GET /auth/rids) */
  parts: readonly StartupPart[];
  framed: boolean;
  isLogged: boolean;
}

/**
 * empty → success once every part has loaded. A 401 means a sign-on is needed: with an isLogged cookie the
 * session merely expired and the user is sent to sign in again (load_frame); without it they are anonymous (failed).
 * Any other failure is failed. Inside a frame the host page owns the failure, so the status stays empty.
 * Once started, a refetch that fails (the server out of reach for a moment) does not take the app down: what loaded
 * stays loaded, and the error is the error box's to show; only a 401 still counts.
 */
export function startupStatus({ parts, framed, isLogged }: StartupInput): StartupStatus {
  const loaded = (part: StartupPart) =>
    part.status === 'success' || (part.data !== undefined && !isUnauthorized(part.error));
  if (parts.every(loaded)) return 'success';
  const failed = parts.filter((part) => part.status === 'error');
  if (failed.length === 0) return 'empty';
  if (failed.some((part) => isUnauthorized(part.error)) && isLogged) return 'load_frame';
  return framed ? 'empty' : 'failed';
}

export function hasIsLoggedCookie(): boolean {
  return readCookie(IS_LOGGED_COOKIE) !== null;
}

function routeIs(pathname: string, route: string): boolean {
  return pathname === route || pathname.startsWith(`${route}/`);
}

/**
 * What a 401 does (SPEC §4 and §8): remember where the user was in the redirect cookie, then send them on.
 * Returns the path to go to, or null to stay.
 *
 * SPEC §4 sends a user without an isLogged cookie to /about and §8 says "go to /login". We reconcile them so:
 * an isLogged cookie means this browser was signed in and the session expired, so /login (one click, or the
 * silent sign-on of the provider, brings them back to the saved path); no cookie means a visitor, who is better
 * served by the landing page /about, which also has the sign-in button. We never navigate to the sign-on
 * endpoint on our own, so an expired session can never become a redirect loop.
 */
export function handleUnauthorized(path: string, isLogged: boolean): string | null {
  const pathname = path.split('?')[0] ?? path;
  if (routeIs(pathname, '/about')) return null;
  if (routeIs(pathname, '/login')) return null;
  writeCookie(REDIRECT_COOKIE, path, { maxAgeSeconds: REDIRECT_COOKIE_MAX_AGE_S, secure: true });
  return isLogged ? '/login' : '/about';
}

interface SessionState {
  status: StartupStatus;
  /** Set when any later request answers 401, so the root layout can send the user to sign in. */
  unauthorized: boolean;
  /** A start-up request answered 401: a redirect is under way, so no failure screen should flash first. */
  signOnRequired: boolean;
  setStatus(status: StartupStatus, signOnRequired?: boolean): void;
  setUnauthorized(value: boolean): void;
}

export const useSession = create<SessionState>((set) => ({
  status: 'empty',
  unauthorized: false,
  signOnRequired: false,
  setStatus: (status, signOnRequired = false) => set({ status, signOnRequired }),
  setUnauthorized: (unauthorized) => set({ unauthorized }),
}));
