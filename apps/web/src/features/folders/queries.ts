import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Label, LabelCreateRequest } from '@mailroom/protocol';
import { call, routes } from '../../api/client';

export type { Label };

/** The body of POST labels (SPEC §5 defaults are the server's too). */
export type NewLabel = LabelCreateRequest['label'];

/** Query keys of the folder tree and the labels: this feature owns them (live events and mutations use these). */
export const folderKeys = {
  folders: ['folders'] as const,
  labels: ['labels'] as const,
};

export const folderQueries = {
  folders: () =>
    queryOptions({
      queryKey: folderKeys.folders,
      queryFn: () => call(routes.folders),
      select: (response) => response.folders,
      meta: { showError: true },
    }),
  labels: () =>
    queryOptions({
      queryKey: folderKeys.labels,
      queryFn: ({ signal }) => call(routes.labels, { signal }),
      select: (response) => response.labels,
    }),
};

export function useFolders() {
  return useQuery(folderQueries.folders());
}

export function useLabels(enabled = true) {
  return useQuery({ ...folderQueries.labels(), enabled });
}
