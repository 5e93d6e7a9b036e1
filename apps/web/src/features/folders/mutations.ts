import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { FolderUpdate, LabelUpdateRequest } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { folderKeys, type NewLabel } from './queries';

// The changes to folders and labels, apart from the queries: only the dialogs and menus use them, which load on
// demand, so they stay out of the mail shell's initial JavaScript (DESIGN §5).

/** A change after which the folders, the labels or both (`keys`) are read again. */
function useWriteThen<V, R>(send: (variables: V) => Promise<R>, ...keys: QueryKey[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => Promise.all(keys.map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

export function useCreateFolder() {
  return useWriteThen(
    (folder: { parent_id: number | null; name: string }) => call(routes.createFolder, { body: { folder } }),
    folderKeys.folders,
  );
}

export function useCreateLabel() {
  return useWriteThen((label: NewLabel) => call(routes.createLabel, { body: { label } }), folderKeys.labels);
}

export function useRenameFolder() {
  return useWriteThen(
    ({ id, name }: { id: number; name: string }) =>
      call(routes.updateFolder, { params: { id }, body: { folder: { name } } }),
    folderKeys.folders,
  );
}

/** Renames and/or moves a folder under another parent (null: the top level); its subfolders go with it. */
export function useUpdateFolder() {
  return useWriteThen(
    ({ id, folder }: { id: number; folder: FolderUpdate['folder'] }) =>
      call(routes.updateFolder, { params: { id }, body: { folder } }),
    folderKeys.folders,
  );
}

/** Deletes every message of a folder (its counters come back through the folders). */
export function useEmptyFolder() {
  return useWriteThen(
    (folderId: number) => call(routes.emptyFolder, { body: { folder_id: folderId } }),
    folderKeys.folders,
  );
}

/** Deletes a folder with its messages; a label kept to it then looks in every folder. */
export function useDeleteFolder() {
  return useWriteThen(
    (id: number) => call(routes.deleteFolder, { params: { id } }),
    folderKeys.folders,
    folderKeys.labels,
  );
}

export function useUpdateLabel() {
  return useWriteThen(
    ({ id, label }: { id: number; label: LabelUpdateRequest['label'] }) =>
      call(routes.updateLabel, { params: { id }, body: { label } }),
    folderKeys.labels,
  );
}

export function useDeleteLabel() {
  return useWriteThen((id: number) => call(routes.deleteLabel, { params: { id } }), folderKeys.labels);
}
