import { call, routes } from '../../api/client';
import { raiseError } from '../../api/error-message';
import { mailboxNavigation } from './impersonation';

// Loaded when a switch is chosen (the account menu, the impersonation bar, a delegated address): not with the shell
// (DESIGN §5).

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
