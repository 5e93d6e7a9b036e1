import {
  normaliseSenderEntry,
  SENDER_LISTS_MAX,
  type SenderEntry,
  type SenderListName,
} from '@mailroom/protocol';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { lockAccount } from '../mailbox/index.js';
import { contactAddresses } from '../contacts/index.js';
import {
  countSenderEntries,
  deleteSenderEntry,
  listSenderEntries,
  putSenderEntries,
  type SenderListRow,
} from './sender-lists.repository.js';

const toEntry = (row: SenderListRow): SenderEntry => ({
  entry: row.entry,
  list: row.list,
  created_at: row.created_at.toISOString(),
});

export async function listSenders(db: Db, accountId: number): Promise<SenderEntry[]> {
  return (await listSenderEntries(db, accountId)).map(toEntry);
}

/**
 * Puts addresses or domains on the allow or block list (one moves from the other list), all or none: an entry that is
 * neither an address nor a domain is `sender_entry_invalid`, past SENDER_LISTS_MAX entries `sender_lists_full`.
 */
export async function addSenders(
  db: Db,
  accountId: number,
  list: SenderListName,
  inputs: string[],
): Promise<{ senders: SenderEntry[]; added: number }> {
  const entries: string[] = [];
  for (const input of inputs) {
    const entry = normaliseSenderEntry(input);
    if (!entry)
      throw new DomainError(
        'sender_entry_invalid',
        `"${input.slice(0, 100)}" is neither an address nor a domain`,
      );
    entries.push(entry);
  }
  const added = await transact(db, async (trx) => {
    // Counted and written under the account's lock: two tabs adding at once stay within the limit.
    await lockAccount(trx, accountId);
    const count = await putSenderEntries(trx, accountId, list, [...new Set(entries)]);
    if ((await countSenderEntries(trx, accountId)) > SENDER_LISTS_MAX)
      throw new DomainError('sender_lists_full');
    return count;
  });
  return { senders: await listSenders(db, accountId), added };
}

/** Every address of the address book onto the allow list (as many as the lists still hold). */
export async function allowContacts(
  db: Db,
  accountId: number,
): Promise<{ senders: SenderEntry[]; added: number }> {
  const addresses = await contactAddresses(db, accountId, SENDER_LISTS_MAX);
  const room = SENDER_LISTS_MAX - (await countSenderEntries(db, accountId));
  const fitting = addresses.filter((a) => normaliseSenderEntry(a)).slice(0, Math.max(0, room));
  if (!fitting.length) return { senders: await listSenders(db, accountId), added: 0 };
  return addSenders(db, accountId, 'allow', fitting);
}

export async function removeSender(db: Db, accountId: number, entry: string): Promise<void> {
  const normalised = normaliseSenderEntry(entry) ?? entry.trim().toLowerCase();
  if (!(await deleteSenderEntry(db, accountId, normalised))) throw new DomainError('entity_not_found');
}
