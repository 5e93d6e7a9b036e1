/**
 * What the page knows of the server's clock, for the websocket to catch up instead of the page reading its data
 * again (#13): every API answer says when the server began it (x-mailroom-clock), so its data is complete up to
 * then. While no socket delivers events, the oldest such clock is how far back the socket must replay; once it
 * has caught up (from `at`), an answer begun before `at` but arriving later asks for that span too.
 */
export class ServerClock {
  /** Server clock minus this page's clock, from the latest answer. */
  private offset: number | null = null;
  /** The oldest server clock of data read while no socket was caught up. */
  private unsynced: number | null = null;
  /** From this server clock on, the socket delivers every event; null while there is no caught-up socket. */
  private syncedFrom: number | null = null;
  private lateListener: ((clock: number) => void) | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** An API answer arrived; `clock` is its x-mailroom-clock. */
  noteAnswer(clock: number): void {
    this.offset = clock - this.now();
    if (this.syncedFrom === null) this.unsynced = Math.min(this.unsynced ?? clock, clock);
    else if (clock < this.syncedFrom) this.lateListener?.(clock);
  }

  /** The since of a socket about to open (null: no data read yet), after which the clock waits for caught_up. */
  sinceForOpen(): number | null {
    return this.unsynced;
  }

  /** The socket caught up: events from `at` on arrive; data read before is covered. */
  caughtUp(at: number, onLateAnswer: (clock: number) => void): void {
    this.syncedFrom = at;
    this.unsynced = null;
    this.lateListener = onLateAnswer;
  }

  /** The socket closed (or answered gap and the data was read again): data is complete up to about now. */
  lost(): void {
    this.syncedFrom = null;
    this.lateListener = null;
    if (this.offset !== null) this.unsynced = Math.min(this.unsynced ?? Infinity, this.now() + this.offset);
  }
}

/** The page's one server clock: the API client notes every answer in it, the websocket reads it. */
export const serverClock = new ServerClock();
