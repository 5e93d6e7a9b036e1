import { REDIRECT_COOKIE, safeRedirectPath } from '@mailroom/protocol';
import { call, routeUrl, routes } from '../../api/client';
import i18n from '../../i18n';
import { readCookie } from '../../lib/cookies';

/**
 * The single sign-on entry point is a full-page navigation: the provider answers with redirects, not JSON. The
 * app's language goes with it, so the provider's pages speak it too.
 */
export function signInUrl(redirect: string, options: { prompt?: 'login' } = {}): string {
  return routeUrl(routes.signIn, { query: { redirect, prompt: options.prompt, lang: i18n.language } });
}

/** Where sign-in should return to: the path saved in the redirect cookie when a 401 sent the user away (SPEC §8). */
export function savedRedirectPath(): string {
  return safeRedirectPath(readCookie(REDIRECT_COOKIE));
}

/** Ends only this session (API call); the app then moves on by itself. */
export async function logOut(): Promise<void> {
  await call(routes.logOut);
}

/** Log out: a navigation that ends this session and the provider's, and lands on /login?noredirect=true. */
export function logOutUrl(): string {
  return routeUrl(routes.logOutLink);
}
