import type { MailEvent } from '@mailroom/protocol';
import { transact, type Db, type Trx } from '../core/db/index.js';
import { emit, type EventSink } from '../core/events/index.js';

/** What a change of the store made through the API needs: the database, and where its events go. */
export interface StoreChangeDeps extends EventSink {
  db: Db;
}

/**
 * A change of the store as the API makes it: the mailbox operation runs in one transaction, and the events it
 * reports ride that transaction (the account's tabs hear of it once it has committed, and never if it rolled back).
 */
export function changeStore<T>(
  deps: StoreChangeDeps,
  accountId: number,
  change: (trx: Trx) => Promise<{ result: T; events: readonly MailEvent[] }>,
): Promise<T> {
  return transact(deps.db, async (trx) => {
    const { result, events } = await change(trx);
    await emit(trx, deps, accountId, events);
    return result;
  });
}
