import { api } from '../../api/client';

/** The single sign-on entry point is a full-page navigation: the provider answers with redirects, not JSON. */
export function signInUrl(redirect: string, options: { prompt?: 'login' } = {}): string {
  const params = new URLSearchParams({ redirect });
  if (options.prompt) params.set('prompt', options.prompt);
  return `/auth/wm/login?${params.toString()}`;
}

export async function logOut(): Promise<void> {
  await api.post<{ ok: true }>('/auth/wm/logout');
}
