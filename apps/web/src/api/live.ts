import type { Query, QueryClient } from '@tanstack/react-query';
import {
  WS_MAX_TRIES,
  WS_OPENING_MESSAGE,
  WS_PATH,
  WS_RETRY_AFTER_CLOSE_MS,
  WS_RETRY_AFTER_ERROR_MS,
  WS_TOAST_AT_RECONNECTS,
  type Folder,
  type MailEvent,
} from '@mailroom/protocol';
import { useNotices } from '../ui/notices-store';

export interface LiveOptions {
  url: string;
  onEvent(event: MailEvent): void;
  /** Called with the reconnect count whenever it changes (the toast shows from 3). */
  onReconnectCount?(count: number): void;
  /** Called each time the socket opens, the first time and after a reconnect. */
  onOpen?(): void;
  createSocket?(url: string): WebSocket;
  setTimer?(callback: () => void, ms: number): unknown;
  clearTimer?(handle: unknown): void;
}

/** ws(s)://<this host>/ws — secure when the page is (SPEC §4). */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${WS_PATH}`;
}

/**
 * The websocket of SPEC §4: says 'connection opening' on open; the reconnect count resets on open and grows on
 * close (retry after 1 s) and on error (retry after 5 s), with at most 10 tries. A browser fires 'error' and then
 * 'close' for one failure, so a failure is counted once and the error's longer delay wins.
 */
export class LiveConnection {
  private socket: WebSocket | null = null;
  private timer: unknown = null;
  private count = 0;
  private stopped = false;
  private failedWithError = false;
  private readonly options: Required<LiveOptions>;

  constructor(options: LiveOptions) {
    this.options = {
      onReconnectCount: () => {},
      onOpen: () => {},
      createSocket: (url) => new WebSocket(url),
      setTimer: (callback, ms) => window.setTimeout(callback, ms),
      clearTimer: (handle) => window.clearTimeout(handle as number),
      ...options,
    };
  }

  get reconnects(): number {
    return this.count;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.options.clearTimer(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }

  private connect(): void {
    if (this.stopped) return;
    this.failedWithError = false;
    let socket: WebSocket;
    try {
      socket = this.options.createSocket(this.options.url);
    } catch {
      this.retry(WS_RETRY_AFTER_ERROR_MS);
      return;
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      this.setCount(0);
      socket.send(WS_OPENING_MESSAGE);
      this.options.onOpen();
    });
    socket.addEventListener('message', (message: MessageEvent) => {
      if (typeof message.data !== 'string' || message.data === WS_OPENING_MESSAGE) return;
      try {
        const event = JSON.parse(message.data) as MailEvent;
        if (event && typeof event.event === 'string') this.options.onEvent(event);
      } catch {
        // Not an event frame: nothing to refresh.
      }
    });
    socket.addEventListener('error', () => {
      if (this.socket !== socket) return;
      this.failedWithError = true;
      this.socket = null;
      this.retry(WS_RETRY_AFTER_ERROR_MS);
    });
    socket.addEventListener('close', () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.retry(this.failedWithError ? WS_RETRY_AFTER_ERROR_MS : WS_RETRY_AFTER_CLOSE_MS);
    });
  }

  private retry(delay: number): void {
    if (this.stopped) return;
    this.setCount(this.count + 1);
    if (this.count > WS_MAX_TRIES) return;
    this.timer = this.options.setTimer(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }

  private setCount(count: number): void {
    if (count === this.count) return;
    this.count = count;
    this.options.onReconnectCount(count);
  }
}

/** SPEC §4: new, store and move refresh the active folder's lists; updateMailbox(List) reload the folders and quota. */
export function applyMailEvent(client: QueryClient, event: MailEvent): void {
  switch (event.event) {
    case 'new':
    case 'store':
    case 'move':
      void client.invalidateQueries({ queryKey: ['messages', 'list', 'folder', event.folder_id] });
      // A label list mixes folders; it may show any of these messages.
      void client.invalidateQueries({ queryKey: ['messages', 'list', 'label'] });
      if (event.event === 'move' && event.to_folder_id !== null)
        void client.invalidateQueries({ queryKey: ['messages', 'list', 'folder', event.to_folder_id] });
      break;
    case 'updateMailbox':
    case 'updateMailboxList':
      void client.invalidateQueries({ queryKey: ['folders'] });
      // Counters change when mail arrives or leaves for good, and so does the quota bar's 'Used X of Y'.
      void client.invalidateQueries({ queryKey: ['user', 'account'] });
      break;
  }
}

/**
 * Events sent while no socket was open are lost — mail that arrived while the page was loading (the lists load
 * before the live chunk connects) or during a reconnect: what was loaded before the socket opened is loaded again.
 */
export function refreshMissed(client: QueryClient, openedAt: number): void {
  const loadedBefore = (query: Query) => query.state.dataUpdatedAt < openedAt;
  for (const queryKey of [['messages', 'list'], ['folders'], ['user', 'account']]) {
    void client.invalidateQueries({ queryKey, predicate: loadedBefore });
  }
}

function inboxUnread(folders: readonly Folder[] | undefined): number {
  return folders?.find((folder) => folder.system === 'inbox')?.unread ?? 0;
}

/** "(3) Mailroom": the Inbox's unread count in the tab title. */
export function documentTitle(appName: string, unread: number): string {
  return unread > 0 ? `(${unread}) ${appName}` : appName;
}

/**
 * Opens the live connection for the signed-in shell and keeps the tab title's unread count current; returns the
 * function that stops both. Loaded after the first paint (app-shell.tsx), as nothing on screen needs it to draw.
 */
export function startLiveUpdates(client: QueryClient, appName: string): () => void {
  const setToast = useNotices.getState().setRefreshToast;
  const connection =
    typeof WebSocket === 'undefined'
      ? null
      : new LiveConnection({
          url: liveUrl(),
          onEvent: (event) => applyMailEvent(client, event),
          onReconnectCount: (count) => setToast(count >= WS_TOAST_AT_RECONNECTS),
          onOpen: () => refreshMissed(client, Date.now()),
        });
  connection?.start();

  const update = () => {
    const data = client.getQueryData<{ folders: Folder[] }>(['folders']);
    document.title = documentTitle(appName, inboxUnread(data?.folders));
  };
  update();
  const unsubscribe = client.getQueryCache().subscribe((change) => {
    if (change.query.queryKey[0] === 'folders') update();
  });
  return () => {
    connection?.stop();
    unsubscribe();
  };
}
