import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Label, LabelCreateRequest, LabelUpdateRequest } from '@mailroom/protocol';
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

export function useCreateFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (folder: { parent_id: number | null; name: string }) =>
      call(routes.createFolder, { body: { folder } }),
    onSuccess: () => client.invalidateQueries({ queryKey: folderKeys.folders }),
  });
}

export function useCreateLabel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (label: NewLabel) => call(routes.createLabel, { body: { label } }),
    onSuccess: () => client.invalidateQueries({ queryKey: folderKeys.labels }),
  });
}

export function useRenameFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      call(routes.updateFolder, { params: { id }, body: { folder: { name } } }),
    onSuccess: () => client.invalidateQueries({ queryKey: folderKeys.folders }),
  });
}

/** Deletes a folder with its messages; a label kept to it then looks in every folder. */
export function useDeleteFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(routes.deleteFolder, { params: { id } }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: folderKeys.folders }),
        client.invalidateQueries({ queryKey: folderKeys.labels }),
      ]),
  });
}

export function useUpdateLabel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, label }: { id: number; label: LabelUpdateRequest['label'] }) =>
      call(routes.updateLabel, { params: { id }, body: { label } }),
    onSuccess: () => client.invalidateQueries({ queryKey: folderKeys.labels }),
  });
}

export function useDeleteLabel() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call(routes.deleteLabel, { params: { id } }),
    onSuccess: () => client.invalidateQueries({ queryKey: folderKeys.labels }),
  });
}
