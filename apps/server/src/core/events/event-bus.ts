import { EventEmitter } from 'node:events';
import type { MailEvent } from '@mailroom/protocol';

export type EventHandler = (event: MailEvent) => void;

/**
 * Per-account events for live clients. Publish only after the change is committed; a subscriber
 * receives its own account's events and nothing else.
 */
export interface EventBus {
  publish(accountId: number, events: MailEvent[]): Promise<void>;
  subscribe(accountId: number, handler: EventHandler): () => void;
  close(): Promise<void>;
}

/** One process: events go straight from publisher to subscribers. */
export class InProcessEventBus implements EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(accountId: number, events: MailEvent[]): Promise<void> {
    for (const event of events) this.deliver(accountId, event);
  }

  /** Hands an event to this process's subscribers of the account. */
  deliver(accountId: number, event: MailEvent): void {
    // One failing subscriber must not keep the event from the others, nor fail the publisher.
    for (const handler of this.emitter.listeners(String(accountId)) as EventHandler[]) {
      try {
        handler(event);
      } catch {
        // The subscriber owns its errors (a websocket client drops itself).
      }
    }
  }

  subscribe(accountId: number, handler: EventHandler): () => void {
    const key = String(accountId);
    this.emitter.on(key, handler);
    return () => this.emitter.off(key, handler);
  }

  /** Accounts with at least one subscriber in this process. */
  accounts(): number[] {
    return this.emitter.eventNames().map(Number);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
