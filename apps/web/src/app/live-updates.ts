import type { QueryClient } from '@tanstack/react-query';
import { WS_TOAST_AT_RECONNECTS, type MailEvent } from '@mailroom/protocol';
import { dispatchLiveEvent, refreshMissedEvents, startLiveUpdates, type LiveHandler } from '../api/live';
import { accountLiveHandler } from '../features/account/live';
import { aliasesLiveHandler } from '../features/aliases/live';
import { collectorsLiveHandler } from '../features/collectors/live';
import { composeLiveHandler } from '../features/compose/live';
import { contactsLiveHandler } from '../features/contacts/live';
import { domainsLiveHandler } from '../features/domains/live';
import { filtersLiveHandler } from '../features/filters/live';
import { foldersLiveHandler, watchUnreadTitle } from '../features/folders/live';
import { mailLiveHandler } from '../features/mail/live';
import { settingsLiveHandler } from '../features/settings/live';
// followSessionChange: a session moved out of the mailbox this page shows (a delegation taken back), started by the
// live socket's close; it lives with the shell's live handler so it loads with the live updates (DESIGN §5).
import { followSessionChange, shellLiveHandler } from '../features/shell/live';
import { useNotices } from '../ui/notices-store';

/** Every feature whose queries the websocket's events keep current, each with its own handler (SPEC §4). */
export const liveHandlers: readonly LiveHandler[] = [
  mailLiveHandler,
  foldersLiveHandler,
  accountLiveHandler,
  filtersLiveHandler,
  contactsLiveHandler,
  aliasesLiveHandler,
  domainsLiveHandler,
  collectorsLiveHandler,
  settingsLiveHandler,
  shellLiveHandler,
  composeLiveHandler,
];

/** One event to every feature's queries. */
export function applyMailEvent(client: QueryClient, event: MailEvent): void {
  dispatchLiveEvent(liveHandlers, client, event);
}

/** What was loaded before the socket opened (at `openedAt`) is loaded again: its events may have been missed. */
export function refreshMissed(client: QueryClient, openedAt: number): void {
  refreshMissedEvents(liveHandlers, client, openedAt);
}

/**
 * The signed-in shell's live updates: the websocket with the features' handlers, the refresh toast after repeated
 * reconnects, and the tab title's unread count. Returns the function that stops them. Loaded after the first paint.
 */
export function startAppLiveUpdates(client: QueryClient, appName: string): () => void {
  const setToast = useNotices.getState().setRefreshToast;
  const stopLive = startLiveUpdates(client, {
    handlers: liveHandlers,
    onReconnectCount: (count) => setToast(count >= WS_TOAST_AT_RECONNECTS),
    onSessionEnded: () => void followSessionChange(client),
  });
  const stopTitle = watchUnreadTitle(client, appName);
  return () => {
    stopLive();
    stopTitle();
  };
}
