import type { QueryClient } from '@tanstack/react-query';
import type { AccessResponse } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { raiseError } from '../../api/error-message';
import { accountKeys } from '../account';

/** The full-page load into the other mailbox (an object, so tests can watch it: jsdom does not navigate). */
export const mailboxNavigation = { assign: (path: string) => window.location.assign(path) };

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

/** The mailboxes shared with this member (GET user/shared-mailboxes): the account menu reads them when it opens. */
export const sharedMailboxesKey = ['user', 'shared-mailboxes'] as const;

/** The addresses other members delegated to this one (GET user/delegated-emails): the sidebar and settings/d_emails. */
export const delegatedEmailsKey = ['user', 'delegated-emails'] as const;

/** Where the page that follows keeps the address this tab was moved out of (sessionStorage: this tab only). */
const LEFT_ADDRESS_KEY = 'mailroom.leftDelegatedAddress';

/**
 * The live socket of a session in another member's mailbox closed as its session ended or changed: a delegation
 * taken back moves the session to the delegate's own mailbox (issue 28 item 23). When the session is no longer
 * where this page is, the app starts again on /mail, in the mailbox the session is in now; the page after it says
 * why (leftAddressNotice). A session that really ended is left to the next request's 401, as before.
 */
export async function followSessionChange(client: QueryClient): Promise<void> {
  const before = client.getQueryData<AccessResponse>(accountKeys.access);
  if (!before?.info.impersonator) return;
  let now: AccessResponse;
  try {
    now = await call(routes.access);
  } catch {
    return;
  }
  const same =
    now.email === before.email &&
    (now.info.alias ?? null) === (before.info.alias ?? null) &&
    now.info.impersonator?.member_id === before.info.impersonator.member_id;
  if (same) return;
  if (before.info.alias) {
    try {
      sessionStorage.setItem(LEFT_ADDRESS_KEY, before.info.alias);
    } catch {
      // No storage: the move happens without its notice.
    }
  }
  mailboxNavigation.assign('/mail');
}

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
