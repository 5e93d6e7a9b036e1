import { SPLITTER_DEFAULT } from '@mailroom/protocol';

/** Where react-resizable-panels keeps the layout of the group 'mailroom-panes' (its useDefaultLayout format). */
const STORAGE_KEY = 'react-resizable-panels:mailroom-panes';

/** The list pane's remembered share in percent, so the first paint matches the splitter that loads after it. */
export function savedListShare(storage: Pick<Storage, 'getItem'> = localStorage): number {
  try {
    const saved = JSON.parse(storage.getItem(STORAGE_KEY) ?? 'null') as { list?: unknown } | null;
    const share = saved?.list;
    if (typeof share === 'number' && share > 0 && share < 100) return share;
  } catch {
    // A damaged entry falls back to the default split.
  }
  return SPLITTER_DEFAULT[0];
}
