import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, isUnauthorized } from '../api/client';
import { raiseError } from '../api/error-message';
import { useSession } from './startup';

declare module '@tanstack/react-query' {
  interface Register {
    /** showError: raise the error dialog when this query fails (mutations raise it unless silent). */
    queryMeta: { showError?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError(error, query) {
        if (isUnauthorized(error)) useSession.getState().setUnauthorized(true);
        else if (query.meta?.showError) raiseError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        if (isUnauthorized(error)) useSession.getState().setUnauthorized(true);
        else if (!mutation.meta?.silent) raiseError(error);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change on retry; network blips and 5xx get two more tries.
        retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      },
    },
  });
}
