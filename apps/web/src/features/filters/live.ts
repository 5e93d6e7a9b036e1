import type { FilterRun } from '@mailroom/protocol';
import type { LiveHandler } from '../../api/live';
import { filterKeys } from './queries';

/** A run over a folder moved on: its progress and counts replace what the apply dialog shows. */
export const filtersLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event !== 'filterRun') return;
    const known = client.getQueryData<FilterRun>(filterKeys.run(event.run.id));
    // Events of one run may overtake each other between processes: the one that has done more wins.
    if (known && known.state !== 'queued' && event.run.done < known.done && event.run.state === 'running')
      return;
    client.setQueryData(filterKeys.run(event.run.id), event.run);
  },
  refreshAfterGap: [['filterRun']],
};
