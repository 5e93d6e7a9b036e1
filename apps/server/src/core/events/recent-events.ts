import type { MailEvent } from '@mailroom/protocol';

/** How long delivered events are kept for a client catching up (the gap between loading a page and its socket). */
export const RECENT_EVENTS_MS = 60_000;
const MAX_KEPT = 50_000;

interface Kept {
  at: number;
  accountId: number;
  event: MailEvent;
}

/**
 * The events this process delivered in the last minute, by the time it delivered them (its clock). A websocket that
 * opens after its page loaded asks for what happened since the page's data was read, instead of the page reading
 * everything again; the answer is null when this process cannot vouch for the whole span (it started, or its
 * listener was away, after it), and the client then reads again.
 */
export class RecentEvents {
  private kept: Kept[] = [];
  private head = 0;
  /** Before this, events may have been delivered that are not kept. */
  private completeFrom: number;

  constructor(private readonly now: () => number = Date.now) {
    this.completeFrom = now();
  }

  record(accountId: number, event: MailEvent): void {
    const at = this.now();
    this.kept.push({ at, accountId, event });
    this.prune(at);
  }

  /** From now on only: what came before may be missing (a listener that was away). */
  forgetBefore(at: number = this.now()): void {
    this.completeFrom = Math.max(this.completeFrom, at);
    this.prune(this.now());
  }

  /** The account's events delivered from `since` until before `until`, oldest first; null when some may be missing. */
  since(accountId: number, since: number, until = Infinity): MailEvent[] | null {
    const now = this.now();
    this.prune(now);
    if (since < this.completeFrom || since < now - RECENT_EVENTS_MS) return null;
    const found: MailEvent[] = [];
    for (let i = this.head; i < this.kept.length; i++) {
      const kept = this.kept[i]!;
      if (kept.at >= since && kept.at < until && kept.accountId === accountId) found.push(kept.event);
    }
    return found;
  }

  private prune(now: number): void {
    const oldest = now - RECENT_EVENTS_MS;
    while (
      this.head < this.kept.length &&
      (this.kept[this.head]!.at < oldest || this.kept.length - this.head > MAX_KEPT)
    ) {
      // What is dropped for the cap leaves a hole: nothing before the next kept event is complete any more.
      if (this.kept[this.head]!.at >= oldest)
        this.completeFrom = Math.max(this.completeFrom, this.kept[this.head]!.at + 1);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept = this.kept.slice(this.head);
      this.head = 0;
    }
  }
}
