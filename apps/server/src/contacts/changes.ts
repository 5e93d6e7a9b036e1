import type { AccountPart } from '@mailroom/protocol';
import type { Db, Trx } from '../core/db/index.js';
import { emit, type EventSink } from '../core/events/index.js';

/** What a change of the address book needs: the database, and where its events go. */
export interface ContactsDeps extends EventSink {
  db: Db;
}

/** Tells the owner's other tabs what to read again (updateAccount), once the change's transaction has committed. */
export function contactsChanged(trx: Trx, sink: EventSink, accountId: number, parts: AccountPart[]) {
  return emit(
    trx,
    sink,
    accountId,
    parts.map((part) => ({ event: 'updateAccount' as const, part })),
  );
}
