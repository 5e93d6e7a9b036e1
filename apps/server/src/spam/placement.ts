import type { Db } from '../core/db/index.js';
import { fromDomainProved, type MessageVerdict } from '../mailbox/index.js';
import { getSettings } from '../accounts/index.js';
import { isKnownSender } from '../contacts/index.js';
import { senderListOf } from './sender-lists.repository.js';

/** Rspamd's actions that file a message into Junk. */
const junkActions = new Set(['add header', 'rewrite subject']);

export interface Placement {
  /** The verdict for this account: the receiving path's, with the list that decided and why Junk. */
  verdict: MessageVerdict;
  /** Into Junk rather than the Inbox (a filter's fileinto of another folder still goes there). */
  junk: boolean;
}

/**
 * Where a checked message goes for one account, and why. Its block list sends a sender to Junk. Then a DMARC
 * quarantine, then the spam scorer's action, send it to Junk — unless the scorer alone decided and the sender is on
 * the account's allow list or among its contacts (unless it turned that off), and only a sender whose From domain
 * proved itself (DMARC pass, or a trusted ARC seal): anyone could borrow a contact's address. A DMARC reject never
 * reaches here: SMTP refused it. Mail bound for the Inbox anyway costs one query (the block list).
 */
export async function placeMessage(
  db: Db,
  accountId: number,
  received: MessageVerdict | undefined,
  fromAddress: string,
): Promise<Placement | undefined> {
  if (!received || received.local) return received ? { verdict: received, junk: false } : undefined;
  const verdict: MessageVerdict = { ...received };
  const list = fromAddress ? await senderListOf(db, accountId, fromAddress) : null;
  if (list === 'block') return { verdict: { ...verdict, list, junk: 'block' }, junk: true };
  const auth = verdict.auth;
  if (auth && auth.dmarc.result === 'fail' && auth.dmarc.policy === 'quarantine' && !auth.arc.trusted)
    return { verdict: { ...verdict, junk: 'dmarc' }, junk: true };
  if (!(verdict.spam?.status === 'scored' && junkActions.has(verdict.spam.action)))
    return { verdict, junk: false };
  if (fromAddress && fromDomainProved(verdict)) {
    if (list === 'allow') return { verdict: { ...verdict, list }, junk: false };
    const settings = await getSettings(db, accountId);
    if (settings.trust_contacts !== false && (await isKnownSender(db, accountId, fromAddress)))
      return { verdict: { ...verdict, list: 'contact' }, junk: false };
  }
  return { verdict: { ...verdict, junk: 'spam' }, junk: true };
}
