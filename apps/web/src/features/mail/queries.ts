import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MailListItem, MessageQuery } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { searchRequest } from '../search';
import type { ListSource } from './list-model';

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
      source.order ?? '',
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
