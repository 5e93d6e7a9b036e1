import type { LiveHandler } from '../../api/live';
import { useNotices } from '../../ui/notices-store';

/** scheduledSendsKey of scheduled-queries.ts, spelled here again so that the shell's live code stays small. */
const scheduledKey = ['scheduled-sends'] as const;

/** The tag of the "Sending… Undo" box of a held send (use-compose-send.ts). */
export const scheduledNoticeTag = (id: number) => `scheduled:${id}`;

/**
 * A send waiting in Scheduled changed (issue 31): cancelled in another tab or device closes this tab's
 * "Sending… Undo" box, sent finishes it at once; the Scheduled banner reads the list again.
 */
export const composeLiveHandler: LiveHandler = {
  onEvent(event, client) {
    if (event.event !== 'scheduledSend') return;
    const notices = useNotices.getState();
    if (event.state === 'cancelled') notices.dismissTag(scheduledNoticeTag(event.id));
    if (event.state === 'sent') notices.finishTag(scheduledNoticeTag(event.id));
    void client.invalidateQueries({ queryKey: scheduledKey });
  },
  refreshAfterGap: [scheduledKey],
};
