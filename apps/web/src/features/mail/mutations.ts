import {
  MutationObserver,
  useMutation,
  useQueryClient,
  type MutationOptions,
  type QueryClient,
} from '@tanstack/react-query';
import type { ActionResult, MessageQuery, MovedMessage } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { folderKeys } from '../folders';
import {
  messageKey,
  toFolderMessages,
  withLabel,
  withoutMessages,
  type FlagChange,
  type LabelChange,
} from './list-model';
import {
  changeAtOnce,
  mailKeys,
  restore,
  snapshot,
  updateLists,
  type MessageRef,
  type Snapshot,
} from './queries';

// The list's changes besides the star: the reader, the toolbar's actions and a drop on a folder make them, and they
// load with those (lazy chunks, a drop's on the drop), not with the mail shell (DESIGN §5).

/** Delete and move take the rows out of the list at once; the refetch afterwards brings the next rows up. */
function removing<V extends { messages: readonly MessageRef[] }>(
  client: QueryClient,
  request: (variables: V) => Promise<ActionResult>,
): MutationOptions<ActionResult, Error, V, { saved: Snapshot }> {
  return {
    mutationFn: request,
    onMutate: async (variables: V) => {
      await client.cancelQueries({ queryKey: mailKeys.lists });
      const saved = snapshot(client);
      const keys = new Set(variables.messages.map(messageKey));
      updateLists(client, (list) => withoutMessages(list, keys));
      return { saved };
    },
    onError: (_error, _variables, context) => restore(client, context?.saved),
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: mailKeys.lists }),
        client.invalidateQueries({ queryKey: folderKeys.folders }),
      ]);
    },
  };
}

/** A change the server works out (empty a folder, a select-all action): the lists and counters are read again. */
function invalidating<V, R>(
  client: QueryClient,
  request: (variables: V) => Promise<R>,
): MutationOptions<R, Error, V> {
  return {
    mutationFn: request,
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: mailKeys.lists }),
        client.invalidateQueries({ queryKey: folderKeys.folders }),
      ]);
    },
  };
}

const deleteOptions = (client: QueryClient) =>
  removing(client, ({ messages }: { messages: readonly MessageRef[] }) =>
    call(routes.deleteMessages, { body: { folder_messages: toFolderMessages(messages) } }),
  );

const moveOptions = (client: QueryClient) =>
  removing(
    client,
    ({ destinationId, messages }: { destinationId: number; messages: readonly MessageRef[] }) =>
      call(routes.moveMessages, {
        body: { destination_id: destinationId, folder_messages: toFolderMessages(messages) },
      }),
  );

const emptyOptions = (client: QueryClient) =>
  invalidating(client, (folderId: number) => call(routes.emptyFolder, { body: { folder_id: folderId } }));

export interface BulkVariables {
  request_type: 'move' | 'mark';
  request_params: { destination_id?: number; flag?: FlagChange | 'label' | 'unlabel'; label_id?: number };
  request: MessageQuery;
}

const bulkOptions = (client: QueryClient) =>
  invalidating(client, (variables: BulkVariables) => call(routes.bulkAction, { body: variables }));

export function useDeleteMessages() {
  return useMutation(deleteOptions(useQueryClient()));
}

export function useEmptyFolder() {
  return useMutation(emptyOptions(useQueryClient()));
}

/** Select-all acts on the whole folder or label, not just the page (SPEC §4): the server resolves the set. */
export function useBulkAction() {
  return useMutation(bulkOptions(useQueryClient()));
}

/** What a move takes: rows named by folder and uid, or with select-all on the request naming the whole list. */
export type MoveSubject = { bulk: MessageQuery } | { messages: readonly MessageRef[] };

/**
 * The one move of the mail screen, for the toolbar's 'Move to folder' and for a drop onto a folder of the sidebar:
 * select-all goes to the bulk call, which moves the whole folder, label or search result (SPEC §4). A mutation of
 * the query client as useMutation makes one (its failure goes to the error box), without a component.
 */
export async function moveTo(
  client: QueryClient,
  destinationId: number,
  subject: MoveSubject,
): Promise<MovedMessage[]> {
  let result: ActionResult | undefined;
  if ('bulk' in subject) {
    result = await new MutationObserver(client, bulkOptions(client)).mutate({
      request_type: 'move',
      request_params: { destination_id: destinationId },
      request: subject.bulk,
    });
  } else if (subject.messages.length > 0) {
    result = await new MutationObserver(client, moveOptions(client)).mutate({
      destinationId,
      messages: subject.messages,
    });
  }
  // A moved message is no longer where the reader asks for it: an open one is asked for again, answers 404 and
  // the reader goes back to the list (a drop on the sidebar does not know what the reader shows).
  void client.invalidateQueries({ queryKey: mailKeys.mails });
  return result?.moved ?? [];
}

/**
 * Undo of a move (or of a delete, which moves to Trash): each message goes back to the folder it came from, as a
 * move of its own — the server reverses the action rather than having delayed it, so flags and labels come back
 * as they were.
 */
export async function moveBack(client: QueryClient, moved: readonly MovedMessage[]): Promise<void> {
  const origins = new Map<number, MessageRef[]>();
  for (const m of moved) {
    const refs = origins.get(m.folder_id) ?? [];
    refs.push({ folder_id: m.destination_id, uid: m.destination_uid });
    origins.set(m.folder_id, refs);
  }
  for (const [origin, messages] of origins) {
    // They all sit in one folder now, and one call takes up to 10,000 of a folder (a select-all move may be more).
    for (let i = 0; i < messages.length; i += 10_000)
      await moveTo(client, origin, { messages: messages.slice(i, i + 10_000) });
  }
}

export function useMoveTo(): (destinationId: number, subject: MoveSubject) => Promise<MovedMessage[]> {
  const client = useQueryClient();
  return (destinationId, subject) => moveTo(client, destinationId, subject);
}

export function useMoveBack(): (moved: readonly MovedMessage[]) => Promise<void> {
  const client = useQueryClient();
  return (moved) => moveBack(client, moved);
}

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
    onMutate: ({ labelId, add, messages }) =>
      changeAtOnce(client, messages, (list, keys) => withLabel(list, keys, { labelId, add })),
    onError: (_error, _variables, context) => restore(client, context?.saved),
    // A label list shows what carries the label: it changes with it.
    onSettled: () => client.invalidateQueries({ queryKey: mailKeys.listsOfKind('label') }),
  });
}
