import { call, routes } from '../../api/client';
import { raiseError } from '../../api/error-message';
import { LEFT_ADDRESS_KEY, mailboxNavigation } from './impersonation';

// Loaded when a switch is chosen (the account menu, the impersonation bar, a delegated address), or on the page after
// a move out of a delegated address: not with the shell (DESIGN §5).

/**
 * Switching mailboxes (SPEC §6 impersonation): the session opens a mailbox shared with this member, or goes back to
 * its own. Everything on screen belongs to the mailbox, so the app starts again on /mail rather than patch caches.
 */
async function switchThen(send: () => Promise<unknown>): Promise<void> {
  try {
    await send();
  } catch (error) {
    raiseError(error);
    return;
  }
  mailboxNavigation.assign('/mail');
}

export const openSharedMailbox = (memberId: string) =>
  switchThen(() => call(routes.impersonate, { body: { member_id: memberId } }));

export const backToOwnMailbox = () => switchThen(() => call(routes.endImpersonation));

/**
 * Opening an address another member delegated to this one (POST /auth/delegated): the session holds the owner's
 * mailbox to that one address, as a password-access session of it would; the impersonation bar leads back.
 */
export const openDelegatedAddress = (email: string) =>
  switchThen(() => call(routes.openDelegated, { body: { email } }));

/**
 * After such a move: the address this tab was moved out of, if it is no longer delegated to this member (it was taken
 * back, or removed); null otherwise (nothing moved, or the member went back themselves in another tab). Asked once.
 */
export async function leftAddressNotice(): Promise<string | null> {
  let address: string | null = null;
  try {
    address = sessionStorage.getItem(LEFT_ADDRESS_KEY);
    sessionStorage.removeItem(LEFT_ADDRESS_KEY);
  } catch {
    return null;
  }
  if (!address) return null;
  const delegated = await call(routes.delegatedEmails).catch(() => null);
  if (!delegated || delegated.emails.some((e) => e.email.toLowerCase() === address.toLowerCase()))
    return null;
  return address;
}
