import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { FilterRun } from '@mailroom/protocol';
import { filtersLiveHandler } from './live';
import { filterKeys } from './queries';

const run = (done: number, state: FilterRun['state'] = 'running'): FilterRun => ({
  id: 7,
  folder_id: 1,
  dry_run: true,
  state,
  total: 10,
  done,
  counts: { matched: done, moved: done, flagged: 0, labelled: 0, deleted: 0, skipped: 0 },
  error: null,
});

describe('filter runs on the websocket', () => {
  it('a filterRun event becomes the run the apply dialog reads, and a late event does not go back', () => {
    const client = new QueryClient();
    filtersLiveHandler.onEvent({ event: 'filterRun', run: run(4) }, client);
    expect(client.getQueryData(filterKeys.run(7))).toEqual(run(4));
    filtersLiveHandler.onEvent({ event: 'filterRun', run: run(2) }, client);
    expect(client.getQueryData<FilterRun>(filterKeys.run(7))?.done).toBe(4);
    filtersLiveHandler.onEvent({ event: 'filterRun', run: run(10, 'done') }, client);
    expect(client.getQueryData<FilterRun>(filterKeys.run(7))?.state).toBe('done');
  });

  it('other events leave the runs alone', () => {
    const client = new QueryClient();
    filtersLiveHandler.onEvent({ event: 'updateMailboxList' } as never, client);
    expect(client.getQueryCache().getAll()).toEqual([]);
  });
});
