import type { BlobStore } from '../core/blobs/index.js';
import { transact, type Db } from '../core/db/index.js';
import { putMessageBlobs, storeMessage, type StoreMessageResult } from './store-message.js';
import { parseMessage } from './parse/index.js';

/**
 * Puts a message the service itself writes to a member (a bounce, a notice about their own
 * mail) into their Inbox. Never refused for space: it is about mail they already have. `alongside`
 * runs in the same transaction, so a notice and the state change it reports commit together.
 */
export async function storeNotice(
  db: Db,
  blobs: BlobStore,
  accountId: number,
  raw: Buffer,
  alongside?: (trx: Db) => Promise<void>,
): Promise<StoreMessageResult> {
  const [parsed, stored] = await Promise.all([parseMessage(raw), putMessageBlobs(blobs, raw)]);
  return transact(db, async (trx) => {
    const result = await storeMessage(trx, blobs, {
      accountId,
      systemFolder: 'inbox',
      blobs: stored,
      parsed,
      enforceQuota: false,
    });
    await alongside?.(trx);
    return result;
  });
}
