import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Mail } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { messageKey, toFolderMessages, withLabel, type LabelChange } from './list-model';
import {
  mailKeys,
  restore,
  snapshot,
  updateLists,
  useInvalidatingMutation,
  useRemovingMutation,
  type MessageRef,
} from './queries';

// The list's changes that only the reader and the toolbar's actions make: they load with those (lazy chunks), not
// with the mail shell (DESIGN §5). The star, moves and drops stay in queries.ts, which the list itself uses.

export interface LabelVariables extends LabelChange {
  messages: readonly MessageRef[];
}

/** Labels go on and off at once in the list and the reader, and come back as they were if the server refuses. */
export function useLabelMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ labelId, add, messages }: LabelVariables) =>
      call(routes.markMessages, {
        body: {
          flag: add ? 'label' : 'unlabel',
          label_id: labelId,
          folder_messages: toFolderMessages(messages),
        },
      }),
    onMutate: async ({ labelId, add, messages }) => {
      await client.cancelQueries({ queryKey: mailKeys.all });
      const saved = snapshot(client);
      const keys = new Set(messages.map(messageKey));
      const change = { labelId, add };
      updateLists(client, (list) => withLabel(list, keys, change));
      client.setQueriesData<{ message: Mail }>({ queryKey: mailKeys.mails }, (data) => {
        if (!data || !keys.has(messageKey(data.message))) return data;
        const list = withLabel({ messages: [data.message], total: 1, all: 1 }, keys, change);
        return { message: { ...data.message, labels: list.messages[0]!.labels } };
      });
      return { saved };
    },
    onError: (_error, _variables, context) => restore(client, context?.saved),
    // A label list shows what carries the label: it changes with it.
    onSettled: () => client.invalidateQueries({ queryKey: mailKeys.listsOfKind('label') }),
  });
}

export function useDeleteMessages() {
  return useRemovingMutation(({ messages }: { messages: readonly MessageRef[] }) =>
    call(routes.deleteMessages, { body: { folder_messages: toFolderMessages(messages) } }),
  );
}

export function useEmptyFolder() {
  return useInvalidatingMutation((folderId: number) =>
    call(routes.emptyFolder, { body: { folder_id: folderId } }),
  );
}
