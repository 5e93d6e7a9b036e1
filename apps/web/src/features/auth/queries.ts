import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AccessResponse, Account, RidsResponse } from '@mailroom/protocol';
import { api } from '../../api/client';

export const sessionQueries = {
  access: () =>
    queryOptions({ queryKey: ['auth', 'access'], queryFn: () => api.get<AccessResponse>('/auth/access') }),
  account: () =>
    queryOptions({ queryKey: ['user', 'account'], queryFn: () => api.get<Account>('/api/v1/user/account') }),
  rids: () =>
    queryOptions({ queryKey: ['auth', 'rids'], queryFn: () => api.get<RidsResponse>('/auth/rids') }),
};

/** The signed-in user; inside the protected layout it is always loaded (the guard waits for it). */
export function useUser(): AccessResponse | undefined {
  return useQuery({ ...sessionQueries.access(), enabled: false }).data;
}

export function useAccount(): Account | undefined {
  return useQuery({ ...sessionQueries.account(), enabled: false }).data;
}

export function useRid(): string | null | undefined {
  return useQuery({ ...sessionQueries.rids(), enabled: false }).data?.rid;
}

/** The single sign-on entry point is a full-page navigation: the provider answers with redirects, not JSON. */
export function signInUrl(redirect: string, options: { prompt?: 'login' } = {}): string {
  const params = new URLSearchParams({ redirect });
  if (options.prompt) params.set('prompt', options.prompt);
  return `/auth/wm/login?${params.toString()}`;
}

export async function logOut(): Promise<void> {
  await api.post<{ ok: true }>('/auth/wm/logout');
}
