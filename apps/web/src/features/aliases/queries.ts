import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { AliasAccessUpdate, AliasEntry, Invoice } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { refreshWithAccount, useAccountWrite } from '../account';

/** The aliases screen's queries: every alias of the account, and the paid ones with their invoices. */
export const aliasKeys = {
  all: ['aliases'] as const,
  list: ['aliases', 'list'] as const,
  paid: ['aliases', 'paid'] as const,
};

export const aliasQueries = {
  list: () =>
    queryOptions({
      queryKey: aliasKeys.list,
      queryFn: () => call(routes.aliases),
      meta: { showError: true },
    }),
  paid: () =>
    queryOptions({
      queryKey: aliasKeys.paid,
      queryFn: () => call(routes.paidAliases),
      meta: { showError: true },
    }),
};

/** One alias as the screen shows it: the entry, and its invoice when it is a paid one. */
export interface AliasRow extends AliasEntry {
  invoice: Invoice | null;
}

/**
 * The account's aliases, oldest first, each paid one with its invoice (GET user/aliases and GET user/aliases/paid, read
 * side by side: a paid alias is in both under one id).
 */
export function useAliasRows() {
  const list = useQuery(aliasQueries.list());
  const paid = useQuery(aliasQueries.paid());
  const invoices = new Map((paid.data?.paid_aliases ?? []).map((alias) => [alias.id, alias.invoice]));
  const rows: AliasRow[] | undefined = list.data?.aliases.map((alias) => ({
    ...alias,
    invoice: invoices.get(alias.id) ?? null,
  }));
  return {
    rows,
    freeAvailable: list.data?.free_available ?? false,
    domain: list.data?.domain ?? '',
    isPending: list.isPending,
    isError: list.isError && !list.data,
    retry: () => void Promise.all([list.refetch(), paid.refetch()]),
  };
}

/**
 * After any change of an alias: the screen's lists, and the account (the sidebar's alias list and compose's From
 * read its aliases), are read again.
 */
export const refreshAliases = (client: QueryClient) => refreshWithAccount(client, aliasKeys.all);

const useAliasMutation = <V, R>(send: (variables: V) => Promise<R>, silent = false) =>
  useAccountWrite(aliasKeys.all, send, silent);

/** POST user/aliases (the free alias) or POST user/aliases/paid (an invoice issued); errors shown by the form. */
export function useCreateAlias() {
  return useAliasMutation(
    ({ name, paid }: { name: string; paid: boolean }) =>
      paid
        ? call(routes.createPaidAlias, { body: { name } }).then(({ paid_alias }) => paid_alias)
        : call(routes.createAlias, { body: { name } }).then(({ alias }) => alias),
    true,
  );
}

/**
 * 'I have already paid': the wallet is asked. Its "not paid yet" (pay_invoice) and "rejected" (pay_invoice_cancel)
 * are answers the row shows beside the alias, not failures of the page.
 */
export function useCheckPayment() {
  return useAliasMutation(
    (id: number) => call(routes.checkAliasPayment, { params: { id } }).then(({ paid_alias }) => paid_alias),
    true,
  );
}

/** DELETE user/aliases/{id}, or DELETE user/aliases/paid/{id} for a paid one (an unpaid one is given up). */
export function useDeleteAlias() {
  return useAliasMutation(({ id, paid }: { id: number; paid: boolean }) =>
    paid ? call(routes.deletePaidAlias, { params: { id } }) : call(routes.deleteAlias, { params: { id } }),
  );
}

/** PUT user/aliases/update_access: set or change the alias's password, or remove it (password null). */
export function useUpdateAliasAccess() {
  return useAliasMutation(
    (update: AliasAccessUpdate) =>
      call(routes.updateAliasAccess, { body: update }).then(({ alias }) => alias),
    true,
  );
}
