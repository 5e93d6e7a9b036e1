import { call, routeUrl, routes } from '../../api/client';

/** The single sign-on entry point is a full-page navigation: the provider answers with redirects, not JSON. */
export function signInUrl(redirect: string, options: { prompt?: 'login' } = {}): string {
  return routeUrl(routes.signIn, { query: { redirect, prompt: options.prompt } });
}

export async function logOut(): Promise<void> {
  await call(routes.logOut);
}
