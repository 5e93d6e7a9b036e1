import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FolderUpdate, LabelUpdateRequest } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { folderKeys, type NewLabel } from './queries';

// The changes to folders and labels, apart from the queries: only the dialogs and menus use them, which load on
// demand, so they stay out of the mail shell's initial JavaScript (DESIGN §5).

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

/** Renames and/or moves a folder under another parent (null: the top level); its subfolders go with it. */
export function useUpdateFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, folder }: { id: number; folder: FolderUpdate['folder'] }) =>
      call(routes.updateFolder, { params: { id }, body: { folder } }),
    onSuccess: () => client.invalidateQueries({ queryKey: folderKeys.folders }),
  });
}

/** Deletes every message of a folder (its counters come back through the folders). */
export function useEmptyFolder() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (folderId: number) => call(routes.emptyFolder, { body: { folder_id: folderId } }),
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
