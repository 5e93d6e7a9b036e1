import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FoldersResponse } from '@mailroom/protocol';
import { api } from '../../api/client';

export const mailQueries = {
  folders: () =>
    queryOptions({
      queryKey: ['folders'],
      queryFn: () => api.get<FoldersResponse>('/api/v1/folders'),
      select: (response) => response.folders,
      meta: { showError: true },
    }),
};

export function useFolders() {
  return useQuery(mailQueries.folders());
}
