import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Filter,
  FilterInput,
  FilterRun,
  FiltersResponse,
  FilterTestResponse,
  FilterValidateResponse,
} from '@mailroom/protocol';
import { call, routes } from '../../api/client';

export type FiltersData = FiltersResponse['sieve_filter'];

/** Query keys of the filters and of the runs over a folder: this feature owns them (live events write the runs). */
export const filterKeys = {
  filters: ['filters'] as const,
  run: (id: number) => ['filterRun', id] as const,
  /** The latest messages of a folder, to test rules against. */
  testMessages: (folderId: number) => ['filters', 'testMessages', folderId] as const,
};

export const filterQueries = {
  filters: () =>
    queryOptions({
      queryKey: filterKeys.filters,
      queryFn: ({ signal }) => call(routes.filters, { signal }),
      select: (response) => response.sieve_filter,
      meta: { showError: true },
    }),
  run: (id: number) =>
    queryOptions({
      queryKey: filterKeys.run(id),
      queryFn: ({ signal }) => call(routes.filterRun, { params: { id }, signal }).then((r) => r.run),
    }),
};

export function useFilters() {
  return useQuery(filterQueries.filters());
}

/** A filter as the save sends it. */
export function filterInput(filter: Pick<Filter, 'name' | 'rules' | 'enabled'>): FilterInput {
  return { name: filter.name, rules: filter.rules, enabled: filter.enabled };
}

export type FiltersSave = { filters: FilterInput[]; version: number } | { script: string; version: number };

/** POST filters: the whole list in its new order, or the whole script; the answer is the new state. */
export function useSaveFilters() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FiltersSave) => call(routes.saveFilters, { body }),
    onSuccess: (response) => client.setQueryData(filterKeys.filters, response),
    onError: (error) => {
      // Saved in another window meanwhile: show the current list (the error says to try again).
      if ((error as { code?: string }).code === 'filters_changed')
        void client.invalidateQueries({ queryKey: filterKeys.filters });
    },
  });
}

/** The interpreter's problems in a script or one filter's rules (nothing is saved). */
export function validateSieve(script: string, signal?: AbortSignal): Promise<FilterValidateResponse> {
  return call(routes.validateFilter, { body: { script }, signal });
}

/** The latest messages of a folder (its first page), to pick one to test rules against. */
export function useTestMessages(folderId: number | null) {
  return useQuery({
    queryKey: filterKeys.testMessages(folderId ?? 0),
    queryFn: ({ signal }) =>
      call(routes.folderMessages, {
        params: { folder_id: folderId! },
        query: { page: 1, limit: 30 },
        signal,
      }),
    select: (response) => response.messages,
    enabled: folderId !== null,
  });
}

/** What rules would do to one stored message (POST filters/test: nothing is changed). */
export function testFilter(body: {
  script: string;
  folder_id: number;
  uid: number;
}): Promise<FilterTestResponse> {
  return call(routes.testFilter, { body });
}

/** Starts a run of rules over a folder (first dry, then for real); its progress arrives on the websocket. */
export function useApplyFilter() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { script: string; folder_id: number; dry_run: boolean }) =>
      call(routes.applyFilter, { body }).then((response) => response.run),
    onSuccess: (run) => {
      // An event may have come first: never go back from a later state.
      const known = client.getQueryData<FilterRun>(filterKeys.run(run.id));
      if (!known || known.done <= run.done) client.setQueryData(filterKeys.run(run.id), run);
    },
  });
}

/** A run's state: written by the websocket's filterRun events, read once more now and then while it is going. */
export function useFilterRun(id: number | null) {
  return useQuery({
    ...filterQueries.run(id ?? 0),
    enabled: id !== null,
    staleTime: Infinity,
    // A fallback for events lost while the socket reconnects; the events move the progress.
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : 5_000),
  });
}

export function isFinished(run: FilterRun): boolean {
  return run.state === 'done' || run.state === 'failed';
}
