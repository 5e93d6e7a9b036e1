import { EventEmitter } from 'node:events';
import type { MailEvent } from '@mailroom/protocol';
import { RecentEvents } from './recent-events.js';

export type EventHandler = (event: MailEvent) => void;
/** Told the id of a session that ended (signed out, replaced, revoked). */
export type SessionEndedHandler = (sessionId: string) => void;

/**
 * Per-account events for live clients. Publish only after the change is committed; a subscriber
 * receives its own account's events and nothing else. The bus also tells every process that a
 * session ended, so each closes what it holds open for that session (its websockets).
 */
export interface EventBus {
  publish(accountId: number, events: MailEvent[]): Promise<void>;
  subscribe(accountId: number, handler: EventHandler): () => void;
  /** Announces, after the session's row is gone, that the session ended. */
  endSession(sessionId: string): Promise<void>;
  onSessionEnded(handler: SessionEndedHandler): () => void;
  /**
   * The account's events this process delivered since `since` (its clock, ms), for a websocket catching up;
   * null when it cannot vouch for all of them.
   */
  eventsSince(accountId: number, since: number, until?: number): MailEvent[] | null;
  close(): Promise<void>;
}

/** The emitter's key for session ends; account keys are decimal numbers, so it cannot clash. */
const SESSION_ENDED = Symbol('session ended');

/** One process: events go straight from publisher to subscribers. */
export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  readonly recent = new RecentEvents();

  async publish(accountId: number, events: MailEvent[]): Promise<void> {
    for (const event of events) this.deliver(accountId, event);
  }

  /** Hands an event to this process's subscribers of the account. */
  deliver(accountId: number, event: MailEvent): void {
    this.recent.record(accountId, event);
    // One failing subscriber must not keep the event from the others, nor fail the publisher.
    for (const handler of this.emitter.listeners(String(accountId)) as EventHandler[]) {
      try {
        handler(event);
      } catch {
        // The subscriber owns its errors (a websocket client drops itself).
      }
    }
  }

  async endSession(sessionId: string): Promise<void> {
    this.sessionEnded(sessionId);
  }

  /** Tells this process's handlers that a session ended. */
  sessionEnded(sessionId: string): void {
    for (const handler of this.emitter.listeners(SESSION_ENDED) as SessionEndedHandler[]) {
      try {
        handler(sessionId);
      } catch {
        // As with events: the handler owns its errors.
      }
    }
  }

  onSessionEnded(handler: SessionEndedHandler): () => void {
    this.emitter.on(SESSION_ENDED, handler);
    return () => this.emitter.off(SESSION_ENDED, handler);
  }

  eventsSince(accountId: number, since: number, until?: number): MailEvent[] | null {
    return this.recent.since(accountId, since, until);
  }

  subscribe(accountId: number, handler: EventHandler): () => void {
    const key = String(accountId);
    this.emitter.on(key, handler);
    return () => this.emitter.off(key, handler);
  }

  /** Accounts with at least one subscriber in this process. */
  accounts(): number[] {
    return this.emitter
      .eventNames()
      .filter((name) => name !== SESSION_ENDED)
      .map(Number);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
