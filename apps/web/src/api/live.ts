import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import {
  WS_CLOSE_SESSION_ENDED,
  WS_MAX_TRIES,
  WS_OPENING_MESSAGE,
  WS_PATH,
  WS_RETRY_AFTER_CLOSE_MS,
  WS_RETRY_AFTER_ERROR_MS,
  type LiveSyncFrame,
  type MailEvent,
} from '@mailroom/protocol';
import { serverClock as pageClock, type ServerClock } from './server-clock';

export interface LiveOptions {
  /** Asked at each connection: it may carry what the socket must catch up from (?since=). */
  url: string | (() => string);
  onEvent(event: MailEvent): void;
  /** The server's answer to ?since= or {"since"}: caught up from `at`, or a gap to read again. */
  onSync?(frame: LiveSyncFrame): void;
  /** Called with the reconnect count whenever it changes (the toast shows from 3). */
  onReconnectCount?(count: number): void;
  /** Called each time the socket opens, the first time and after a reconnect. */
  onOpen?(): void;
  /** Called when an open socket closes or fails. */
  /** The socket closed (`code`: its close code; undefined after an error). */
  onClose?(code?: number): void;
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
      onSync: () => {},
      onClose: () => {},
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
      const { url } = this.options;
      socket = this.options.createSocket(typeof url === 'function' ? url() : url);
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
        const frame = JSON.parse(message.data) as MailEvent | LiveSyncFrame;
        if (frame && 'sync' in frame) this.options.onSync(frame);
        else if (frame && typeof frame.event === 'string') this.options.onEvent(frame);
      } catch {
        // Not an event frame: nothing to refresh.
      }
    });
    socket.addEventListener('error', () => {
      if (this.socket !== socket) return;
      this.failedWithError = true;
      this.socket = null;
      this.options.onClose();
      this.retry(WS_RETRY_AFTER_ERROR_MS);
    });
    socket.addEventListener('close', (event: CloseEvent) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.options.onClose(event.code);
      this.retry(this.failedWithError ? WS_RETRY_AFTER_ERROR_MS : WS_RETRY_AFTER_CLOSE_MS);
    });
  }

  /** Sends a text frame if the socket is open. */
  send(text: string): void {
    if (this.socket?.readyState === 1) this.socket.send(text);
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

/** What an updateAccount event says changed (settings, aliases, domains…). */
export type AccountPart = Extract<MailEvent, { event: 'updateAccount' }>['part'];

/** A feature whose queries, all under `key`, one part of the account names: an updateAccount of it reads them again. */
export function accountPartHandler(part: AccountPart, key: QueryKey): LiveHandler {
  return {
    onEvent(event, client) {
      if (event.event === 'updateAccount' && event.part === part)
        void client.invalidateQueries({ queryKey: key });
    },
    refreshAfterGap: [key],
  };
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
  /** Where the page's API answers note the server's clock (the page's own by default). */
  clock?: ServerClock;
  /** Called with the reconnect count whenever it changes (the refresh toast shows from WS_TOAST_AT_RECONNECTS). */
  onReconnectCount?(count: number): void;
  /**
   * The server closed the socket because its session ended or changed (signed out elsewhere, a delegation taken
   * back): the app looks at what the session is now.
   */
  onSessionEnded?(): void;
}

/**
 * Opens the live connection for the signed-in shell and dispatches its events to the handlers; returns the
 * function that stops it. Loaded after the first paint (app-shell.tsx), as nothing on screen needs it to draw.
 */
export function startLiveUpdates(
  client: QueryClient,
  { handlers, onReconnectCount, onSessionEnded, clock = pageClock }: LiveUpdatesOptions,
): () => void {
  if (typeof WebSocket === 'undefined') return () => {};
  let openedAt = 0;
  const connection: LiveConnection = new LiveConnection({
    // The server replays what happened since the page's data was read (or since the last socket closed), so
    // nothing is read twice; only when it cannot (gap) is the data read again.
    url: () => {
      const since = clock.sinceForOpen();
      return since === null ? liveUrl() : `${liveUrl()}?since=${Math.floor(since)}`;
    },
    onEvent: (event) => dispatchLiveEvent(handlers, client, event),
    onSync: (frame) => {
      if (frame.sync === 'caught_up') {
        clock.caughtUp(frame.at, (late) => connection.send(JSON.stringify({ since: late })));
      } else {
        clock.caughtUp(-Infinity, () => {});
        refreshMissedEvents(handlers, client, openedAt);
      }
    },
    onReconnectCount: onReconnectCount ?? (() => {}),
    onOpen: () => {
      openedAt = Date.now();
    },
    onClose: (code) => {
      clock.lost();
      if (code === WS_CLOSE_SESSION_ENDED) onSessionEnded?.();
    },
  });
  connection.start();
  return () => connection.stop();
}
