import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import {
  WS_MAX_TRIES,
  WS_OPENING_MESSAGE,
  WS_PATH,
  WS_RETRY_AFTER_CLOSE_MS,
  WS_RETRY_AFTER_ERROR_MS,
  type MailEvent,
} from '@mailroom/protocol';

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

/**
 * What a feature does with the websocket's events: each feature exports one for the query keys it owns, and the app
 * hands the list to startLiveUpdates. This module only dispatches; it knows no feature and no query key.
 */
export interface LiveHandler {
  /** Turns one event into refreshes of the feature's own queries (SPEC §4). */
  onEvent(event: MailEvent, client: QueryClient): void;
  /**
   * The feature's queries that events keep current: events sent while no socket was open are lost — mail that
   * arrived while the page was loading (the lists load before the live chunk connects) or during a reconnect — so
   * what was loaded under these keys before the socket opened is loaded again.
   */
  refreshAfterGap: readonly QueryKey[];
}

export function dispatchLiveEvent(
  handlers: readonly LiveHandler[],
  client: QueryClient,
  event: MailEvent,
): void {
  for (const handler of handlers) handler.onEvent(event, client);
}

/** Loads again what the handlers' keys held before `openedAt`, when the socket opened, as its events may be lost. */
export function refreshMissedEvents(
  handlers: readonly LiveHandler[],
  client: QueryClient,
  openedAt: number,
): void {
  const loadedBefore = (query: Query) => query.state.dataUpdatedAt < openedAt;
  for (const handler of handlers) {
    for (const queryKey of handler.refreshAfterGap) {
      void client.invalidateQueries({ queryKey: [...queryKey], predicate: loadedBefore });
    }
  }
}

export interface LiveUpdatesOptions {
  handlers: readonly LiveHandler[];
  /** Called with the reconnect count whenever it changes (the refresh toast shows from WS_TOAST_AT_RECONNECTS). */
  onReconnectCount?(count: number): void;
}

/**
 * Opens the live connection for the signed-in shell and dispatches its events to the handlers; returns the
 * function that stops it. Loaded after the first paint (app-shell.tsx), as nothing on screen needs it to draw.
 */
export function startLiveUpdates(
  client: QueryClient,
  { handlers, onReconnectCount }: LiveUpdatesOptions,
): () => void {
  if (typeof WebSocket === 'undefined') return () => {};
  const connection = new LiveConnection({
    url: liveUrl(),
    onEvent: (event) => dispatchLiveEvent(handlers, client, event),
    onReconnectCount: onReconnectCount ?? (() => {}),
    onOpen: () => refreshMissedEvents(handlers, client, Date.now()),
  });
  connection.start();
  return () => connection.stop();
}
