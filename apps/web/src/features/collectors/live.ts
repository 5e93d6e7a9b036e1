import type { Collector } from '@mailroom/protocol';
import type { LiveHandler } from '../../api/live';

/**
 * `collectorKeys.all` and `.list` of queries.ts, spelled here again on purpose (as domains/live.ts does): importing
 * queries.ts would put a chunk shared with the collector screens into the mail shell's list of chunks to preload
 * (DESIGN §5); live.test.ts holds them equal.
 */
const allKey = ['collectors'] as const;
const listKey = ['collectors', 'list'] as const;

/**
 * A `collector` event (progress, a state change, an error: at most a few a second) replaces that collector in the
 * list the settings screen shows; an `updateAccount` 'collectors' (created, changed or deleted here, in another tab)
 * reads the list again.
 */
export const collectorsLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event === 'updateAccount' && event.part === 'collectors') {
      void client.invalidateQueries({ queryKey: allKey });
      return;
    }
    if (event.event !== 'collector') return;
    const list = client.getQueryData<Collector[]>(listKey);
    if (!list) return;
    const next = event.collector;
    const known = list.find((collector) => collector.id === next.id);
    if (!known) {
      // One created elsewhere whose updateAccount has not come yet: the list is read again.
      void client.invalidateQueries({ queryKey: listKey });
      return;
    }
    // Progress events of one pass may overtake each other between processes: the one that has done more wins.
    if (
      known.state === 'importing' &&
      next.state === 'importing' &&
      next.progress.messages_total === known.progress.messages_total &&
      next.progress.messages_done < known.progress.messages_done
    )
      return;
    client.setQueryData<Collector[]>(
      listKey,
      list.map((collector) => (collector.id === next.id ? next : collector)),
    );
  },
  refreshAfterGap: [allKey],
};
