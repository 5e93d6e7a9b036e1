import type { MailEvent } from '@mailroom/protocol';
import { afterCommit, type Db, type Trx } from '../db/index.js';
import type { EventBus } from './event-bus.js';

export interface PublishLog {
  error(obj: object, msg: string): void;
}

/** Where a change's events go: the process's bus, and the log that hears when the bus cannot take them. */
export interface EventSink {
  events: EventBus;
  log: PublishLog;
}

/**
 * The one way events leave a change (issue 29: events ride the transaction): given the change's transaction, they
 * are published once it has committed and never if it rolls back, so no tab hears of a change it cannot read yet;
 * given the database itself (a change of no transaction, a job's progress), at once. Publishing never fails the
 * change: a bus that cannot publish is logged, and clients catch up on their next load or reconnect (the web client
 * reloads its lists whenever the socket opens).
 */
export async function emit(
  db: Db | Trx,
  sink: EventSink,
  accountId: number,
  list: readonly MailEvent[],
): Promise<void> {
  if (!list.length) return;
  if (db.isTransaction) {
    afterCommit(db as Trx, () => publishNow(sink, accountId, list));
    return;
  }
  await publishNow(sink, accountId, list);
}

async function publishNow(sink: EventSink, accountId: number, list: readonly MailEvent[]): Promise<void> {
  try {
    await sink.events.publish(accountId, [...list]);
  } catch (err) {
    sink.log.error({ err, accountId }, 'publishing events failed');
  }
}
