import type { MailEvent } from '@mailroom/protocol';
import type { EventBus } from './event-bus.js';

export interface PublishLog {
  error(obj: object, msg: string): void;
}

/**
 * The one way events leave a change: after its transaction has committed, never failing the
 * committed change. A bus that cannot publish is logged; clients catch up on their next load or
 * reconnect (the web client reloads its lists whenever the socket opens).
 */
export async function publishAfterCommit(
  events: EventBus,
  log: PublishLog,
  accountId: number,
  list: readonly MailEvent[],
): Promise<void> {
  if (!list.length) return;
  try {
    await events.publish(accountId, [...list]);
  } catch (err) {
    log.error({ err, accountId }, 'publishing events failed');
  }
}
