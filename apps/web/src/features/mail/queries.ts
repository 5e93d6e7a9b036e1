import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type {
  ActionResult,
  Mail,
  MailListItem,
  MailListResponse,
  MessageQuery,
  MovedMessage,
} from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { folderKeys } from '../folders';
import { searchRequest } from '../search';
import {
  messageKey,
  toFolderMessages,
  withFlag,
  withoutMessages,
  type FlagChange,
  type ListSource,
} from './list-model';

export type MessageRef = Pick<MailListItem, 'folder_id' | 'uid'>;

/**
 * Query keys: every list lives under ['messages', 'list'], every opened message under ['messages', 'mail'].
 * The folder tree and labels are the folders feature's (folderKeys).
 */
export const mailKeys = {
  all: ['messages'] as const,
  lists: ['messages', 'list'] as const,
  list: (source: ListSource) =>
    [
      'messages',
      'list',
      source.kind,
      source.id,
      source.aliasId,
      source.page,
      source.limit,
      source.search ?? null,
    ] as const,
  listsOfKind: (kind: ListSource['kind']) => ['messages', 'list', kind] as const,
  listsOf: (kind: ListSource['kind'], id: number) => ['messages', 'list', kind, id] as const,
  mails: ['messages', 'mail'] as const,
  mail: (folderId: number, uid: number, showImages: boolean) =>
    ['messages', 'mail', folderId, uid, showImages] as const,
};

/** The query of a folder or label page: the alias view, the page and its size. */
function listQuery(source: ListSource) {
  return { a_id: source.aliasId, page: source.page, limit: source.limit };
}

export const mailQueries = {
  list: (source: ListSource) =>
    queryOptions({
      queryKey: mailKeys.list(source),
      queryFn: ({ signal }) =>
        source.kind === 'search'
          ? call(routes.searchMessages, { body: bulkRequest(source), signal })
          : source.kind === 'label'
            ? call(routes.labelMessages, {
                params: { label_id: source.id },
                query: listQuery(source),
                signal,
              })
            : call(routes.folderMessages, {
                params: { folder_id: source.id },
                query: listQuery(source),
                signal,
              }),
      // Live events and refresh refetch often; without a staleness window the list would blink on every focus.
      staleTime: 10_000,
    }),
  mail: (folderId: number, uid: number, showImages: boolean) =>
    queryOptions({
      queryKey: mailKeys.mail(folderId, uid, showImages),
      queryFn: ({ signal }) =>
        call(routes.message, {
          params: { folder_id: folderId, uid },
          query: { show_images: showImages ? 'true' : undefined },
          signal,
        }),
      select: (response) => response.message,
      // 404 and 400 are handled by the reader (back to the list, first folder), not by the error dialog.
      retry: false,
      staleTime: 60_000,
    }),
};

export function useMessageList(source: ListSource | null) {
  return useQuery({
    ...mailQueries.list(source ?? { kind: 'folder', id: 0, aliasId: 'all', page: 1, limit: 1 }),
    enabled: source !== null && (source.kind === 'search' ? source.search !== undefined : source.id > 0),
  });
}

export function useMail(ref: { folderId: number; uid: number } | null, showImages: boolean) {
  return useQuery({
    ...mailQueries.mail(ref?.folderId ?? 0, ref?.uid ?? 0, showImages),
    enabled: ref !== null,
    // 'Show images' refetches the same message: keep the text on screen meanwhile (the reader remounts per message).
    placeholderData: keepPreviousData,
  });
}

export type Snapshot = [QueryKey, unknown][];

export function snapshot(client: QueryClient): Snapshot {
  return [
    ...client.getQueriesData({ queryKey: mailKeys.lists }),
    ...client.getQueriesData({ queryKey: mailKeys.mails }),
  ];
}

export function restore(client: QueryClient, saved: Snapshot | undefined): void {
  for (const [key, data] of saved ?? []) client.setQueryData(key, data);
}

export function updateLists(client: QueryClient, update: (list: MailListResponse) => MailListResponse): void {
  client.setQueriesData<MailListResponse>({ queryKey: mailKeys.lists }, (list) =>
    list ? update(list) : list,
  );
}

export interface MarkVariables {
  flag: FlagChange;
  messages: readonly MessageRef[];
}

/** Flags change at once on screen (SPEC §4) and go back if the server refuses. */
export function useMarkMessages() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ flag, messages }: MarkVariables) =>
      call(routes.markMessages, { body: { flag, folder_messages: toFolderMessages(messages) } }),
    onMutate: async ({ flag, messages }) => {
      await client.cancelQueries({ queryKey: mailKeys.all });
      const saved = snapshot(client);
      const keys = new Set(messages.map(messageKey));
      updateLists(client, (list) => withFlag(list, keys, flag));
      client.setQueriesData<{ message: Mail }>({ queryKey: mailKeys.mails }, (data) => {
        if (!data || !keys.has(messageKey(data.message))) return data;
        const list = withFlag({ messages: [data.message], total: 1, all: 1 }, keys, flag);
        return { message: { ...data.message, flags: list.messages[0]!.flags } };
      });
      return { saved };
    },
    onError: (_error, _variables, context) => restore(client, context?.saved),
    // Unread counters in the sidebar follow the server's count, not a guess.
    onSettled: () => client.invalidateQueries({ queryKey: folderKeys.folders }),
  });
}

/** Delete and move take the rows out of the list at once; the refetch afterwards brings the next rows up. */
export function useRemovingMutation<V extends { messages: readonly MessageRef[] }>(
  call: (variables: V) => Promise<ActionResult>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
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
  });
}

export function useMoveMessages() {
  return useRemovingMutation(
    ({ destinationId, messages }: { destinationId: number; messages: readonly MessageRef[] }) =>
      call(routes.moveMessages, {
        body: { destination_id: destinationId, folder_messages: toFolderMessages(messages) },
      }),
  );
}

export function useInvalidatingMutation<V, R>(call: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: mailKeys.lists }),
        client.invalidateQueries({ queryKey: folderKeys.folders }),
      ]);
    },
  });
}

export interface BulkVariables {
  request_type: 'move' | 'mark';
  request_params: { destination_id?: number; flag?: FlagChange | 'label' | 'unlabel'; label_id?: number };
  request: MessageQuery;
}

/** Select-all acts on the whole folder or label, not just the page (SPEC §4): the server resolves the set. */
export function useBulkAction() {
  return useInvalidatingMutation((variables: BulkVariables) => call(routes.bulkAction, { body: variables }));
}

/** What a move takes: rows named by folder and uid, or with select-all on the request naming the whole list. */
export type MoveSubject = { bulk: MessageQuery } | { messages: readonly MessageRef[] };

/**
 * The one move of the mail screen, for the toolbar's 'Move to folder' and for a drop onto a folder of the sidebar:
 * select-all goes to the bulk call, which moves the whole folder, label or search result (SPEC §4).
 */
export function useMoveTo(): (destinationId: number, subject: MoveSubject) => Promise<MovedMessage[]> {
  const client = useQueryClient();
  const mover = useMoveMessages();
  const bulker = useBulkAction();
  return async (destinationId, subject) => {
    let result: ActionResult | undefined;
    if ('bulk' in subject) {
      result = await bulker.mutateAsync({
        request_type: 'move',
        request_params: { destination_id: destinationId },
        request: subject.bulk,
      });
    } else if (subject.messages.length > 0) {
      result = await mover.mutateAsync({ destinationId, messages: subject.messages });
    }
    // A moved message is no longer where the reader asks for it: an open one is asked for again, answers 404 and
    // the reader goes back to the list (a drop on the sidebar does not know what the reader shows).
    void client.invalidateQueries({ queryKey: mailKeys.mails });
    return result?.moved ?? [];
  };
}

/**
 * Undo of a move (or of a delete, which moves to Trash): each message goes back to the folder it came from, as a
 * move of its own — the server reverses the action rather than having delayed it, so flags and labels come back
 * as they were.
 */
export function useMoveBack(): (moved: readonly MovedMessage[]) => Promise<void> {
  const moveTo = useMoveTo();
  return async (moved) => {
    const origins = new Map<number, MessageRef[]>();
    for (const m of moved) {
      const refs = origins.get(m.folder_id) ?? [];
      refs.push({ folder_id: m.destination_id, uid: m.destination_uid });
      origins.set(m.folder_id, refs);
    }
    for (const [origin, messages] of origins) {
      // They all sit in one folder now, and one call takes up to 10,000 of a folder (a select-all move may be more).
      for (let i = 0; i < messages.length; i += 10_000)
        await moveTo(origin, { messages: messages.slice(i, i + 10_000) });
    }
  };
}

/** The request describing a list: the active folder, label or search with its alias view. */
export function bulkRequest(source: ListSource): MessageQuery {
  const alias = source.aliasId === 'all' ? null : Number(source.aliasId);
  if (source.kind === 'search' && source.search) {
    // The search's own request: select-all in search results acts on every match, not on the folder.
    return {
      ...searchRequest(source.search, source.id > 0 ? source.id : null, source.page, source.limit),
      ...(alias === null ? {} : { alias_id: alias }),
    };
  }
  return {
    page: source.page,
    limit: source.limit,
    ...(source.kind === 'label' ? { label_id: source.id } : source.id > 0 ? { folder_id: source.id } : {}),
    ...(alias === null ? {} : { alias_id: alias }),
  };
}
