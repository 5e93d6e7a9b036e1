import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { MailImportsResponse } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { withImport } from './live';

/** Query keys of Settings › Import: this feature owns them (live.ts spells the list's key again). */
export const importKeys = {
  list: ['mailImports'] as const,
};

export const importQueries = {
  list: () =>
    queryOptions({
      queryKey: importKeys.list,
      queryFn: ({ signal }) => call(routes.mailImports, { signal }),
      meta: { showError: true },
    }),
};

/** Starts the import of a complete upload; the new import goes to the top of the list at once. */
export function useStartUploadImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ uploadId, filters }: { uploadId: number; filters: boolean }) =>
      call(routes.startMailImport, { body: { import_upload_id: uploadId, filters } }),
    onSuccess: ({ import: started }) =>
      client.setQueryData<MailImportsResponse>(importKeys.list, (list) => withImport(list, started)),
  });
}
