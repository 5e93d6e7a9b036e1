import type { FilterRun } from '@mailroom/protocol';
import type { LiveHandler } from '../../api/live';

/**
 * `filterKeys.run(id)` of queries.ts, spelled here again on purpose: importing queries.ts would put a chunk shared
 * with the filters screens into the mail shell's list of chunks to preload (DESIGN §5); live.test.ts holds the two
 * equal.
 */
const runKey = (id: number) => ['filterRun', id] as const;

/** A run over a folder moved on: its progress and counts replace what the apply dialog shows. */
export const filtersLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event !== 'filterRun') return;
    const known = client.getQueryData<FilterRun>(runKey(event.run.id));
    // Events of one run may overtake each other between processes: the one that has done more wins.
    if (known && event.run.state === 'running' && event.run.done < known.done) return;
    client.setQueryData(runKey(event.run.id), event.run);
  },
  refreshAfterGap: [['filterRun']],
};
