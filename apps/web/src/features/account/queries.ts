import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type { AccessResponse, Account } from '@mailroom/protocol';
import { call, routes } from '../../api/client';

/** Query keys of who is signed in: the user (access), the account (settings, profiles, aliases, quota), the rid. */
export const accountKeys = {
  access: ['auth', 'access'] as const,
  account: ['user', 'account'] as const,
  rids: ['auth', 'rids'] as const,
};

export const sessionQueries = {
  access: () => queryOptions({ queryKey: accountKeys.access, queryFn: () => call(routes.access) }),
  account: () => queryOptions({ queryKey: accountKeys.account, queryFn: () => call(routes.account) }),
  rids: () => queryOptions({ queryKey: accountKeys.rids, queryFn: () => call(routes.rids) }),
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

/**
 * Puts what a save answered into the account every screen reads (settings, profiles), so lists, the reader and
 * compose follow at once without reading the account again.
 */
export function writeAccount(client: QueryClient, change: (account: Account) => Account): void {
  client.setQueryData<Account>(accountKeys.account, (account) => (account ? change(account) : account));
}

/**
 * After a change of something the account lists (an alias, an address on a domain): the queries under `key`, and the
 * account (the sidebar's addresses and compose's From read it), are read again.
 */
export function refreshWithAccount(client: QueryClient, key: QueryKey): Promise<unknown> {
  return Promise.all([
    client.invalidateQueries({ queryKey: key }),
    client.invalidateQueries({ queryKey: accountKeys.account }),
  ]);
}

/**
 * A write after which the queries under `key` and the account are read again. Not awaited: the caller's own onSuccess
 * (a notice, back to the list) comes first. `silent`: its errors are the screen's to show.
 */
export function useAccountWrite<V, R>(key: QueryKey, send: (variables: V) => Promise<R>, silent: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    meta: { silent },
    onSettled: () => void refreshWithAccount(client, key),
  });
}
