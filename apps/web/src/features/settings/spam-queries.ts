import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { SenderListName, SendersResponse } from '@mailroom/protocol';
import { call, routes } from '../../api/client';

/** Query keys of Settings › Spam: this feature owns them. */
export const spamKeys = {
  senders: ['spam', 'senders'] as const,
};

export const spamQueries = {
  senders: () =>
    queryOptions({
      queryKey: spamKeys.senders,
      queryFn: ({ signal }) => call(routes.senders, { signal }),
      meta: { showError: true },
    }),
};

/** Each change answers the lists as they now are: they become the query's data at once. */
function useSendersMutation<V>(send: (variables: V) => Promise<SendersResponse & { added?: number }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (answer) => client.setQueryData(spamKeys.senders, { senders: answer.senders }),
  });
}

export function useAddSenders() {
  return useSendersMutation(({ list, entries }: { list: SenderListName; entries: string[] }) =>
    call(routes.addSenders, { body: { list, entries } }),
  );
}

export function useAllowContacts() {
  return useSendersMutation(() => call(routes.allowContacts));
}

export function useDeleteSender() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (entry: string) => call(routes.deleteSender, { query: { entry } }),
    onSuccess: (_answer, entry) =>
      client.setQueryData<SendersResponse>(spamKeys.senders, (data) =>
        data ? { senders: data.senders.filter((s) => s.entry !== entry) } : data,
      ),
  });
}
