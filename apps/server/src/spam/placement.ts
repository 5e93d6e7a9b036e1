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
 * Where a checked message goes for one account, and why. Its block list sends a sender to Junk; its allow list, and
 * its contacts unless it turned that off, keep one out of Junk — but only a sender whose From domain proved itself
 * (DMARC pass, or a trusted ARC seal), or anyone could borrow a contact's address. Then a DMARC quarantine, then
 * the spam scorer's action. A DMARC reject never reaches here: SMTP refused it.
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
  const proved = fromDomainProved(verdict);
  if (proved && list === 'allow') return { verdict: { ...verdict, list }, junk: false };
  if (proved && fromAddress) {
    const settings = await getSettings(db, accountId);
    if (settings.trust_contacts !== false && (await isKnownSender(db, accountId, fromAddress)))
      return { verdict: { ...verdict, list: 'contact' }, junk: false };
  }
  const auth = verdict.auth;
  if (auth && auth.dmarc.result === 'fail' && auth.dmarc.policy === 'quarantine' && !auth.arc.trusted)
    return { verdict: { ...verdict, junk: 'dmarc' }, junk: true };
  if (verdict.spam?.status === 'scored' && junkActions.has(verdict.spam.action))
    return { verdict: { ...verdict, junk: 'spam' }, junk: true };
  return { verdict, junk: false };
}
