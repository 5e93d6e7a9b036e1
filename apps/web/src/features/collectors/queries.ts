import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Collector, CollectorCreate, CollectorUpdate, FindImapResponse } from '@mailroom/protocol';
import { call, routes } from '../../api/client';

/** The collector screens' queries (live.ts spells `all` and `list` again). */
export const collectorKeys = {
  all: ['collectors'] as const,
  list: ['collectors', 'list'] as const,
  /** What find_imap answered for an address: the confirm page shows it (and asks itself after a reload). */
  found: (email: string) => ['collectors', 'found', email.toLowerCase()] as const,
};

export const collectorQueries = {
  list: () =>
    queryOptions({
      queryKey: collectorKeys.list,
      queryFn: ({ signal }) => call(routes.collectors, { signal }).then(({ collectors }) => collectors),
      meta: { showError: true },
    }),
  /** POST user/collectors/find_imap, as a query of the address: discovery asks the network, so it is kept. */
  found: (email: string) =>
    queryOptions({
      queryKey: collectorKeys.found(email),
      queryFn: ({ signal }) => call(routes.findImap, { body: { email }, signal }),
      staleTime: Infinity,
      retry: false,
    }),
};

export const useCollectors = () => useQuery(collectorQueries.list());

/** Discovery from the create page: its answer is kept for the confirm page; errors show beside the address. */
export function useFindImap() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => call(routes.findImap, { body: { email } }),
    meta: { silent: true },
    onSuccess: (found: FindImapResponse, email) => client.setQueryData(collectorKeys.found(email), found),
  });
}

/** The list with one collector put in (created or changed) before it is read again. */
function useCollectorMutation<V>(send: (variables: V) => Promise<Collector | null>, silent = true) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    meta: { silent },
    onSuccess: (collector) => {
      if (!collector) return;
      client.setQueryData<Collector[]>(collectorKeys.list, (list) =>
        list
          ? list.some((c) => c.id === collector.id)
            ? list.map((c) => (c.id === collector.id ? collector : c))
            : [...list, collector]
          : undefined,
      );
    },
    onSettled: () => void client.invalidateQueries({ queryKey: collectorKeys.list }),
  });
}

/** POST user/collectors: signs in to the server first; its refusal shows on the confirm page. */
export const useCreateCollector = () =>
  useCollectorMutation((body: CollectorCreate) =>
    call(routes.createCollector, { body }).then(({ collector }) => collector),
  );

/** PUT user/collectors/{id}: on/off, a new password (checked by signing in first), apply_filters. */
export const useUpdateCollector = () =>
  useCollectorMutation(({ id, change }: { id: number; change: CollectorUpdate }) =>
    call(routes.updateCollector, { params: { id }, body: change }).then(({ collector }) => collector),
  );

/** DELETE user/collectors/{id}?keep_mail=: the imported folders kept as ordinary mail, or removed. */
export function useDeleteCollector() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, keepMail }: { id: number; keepMail: boolean }) =>
      call(routes.deleteCollector, { params: { id }, query: { keep_mail: keepMail ? 'true' : 'false' } }),
    meta: { silent: true },
    onSuccess: (_, { id }) =>
      client.setQueryData<Collector[]>(collectorKeys.list, (list) => list?.filter((c) => c.id !== id)),
    onSettled: () => void client.invalidateQueries({ queryKey: collectorKeys.list }),
  });
}
