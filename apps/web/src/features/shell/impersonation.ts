import { call, routes } from '../../api/client';

/** The full-page load into the other mailbox (an object, so tests can watch it: jsdom does not navigate). */
export const mailboxNavigation = { assign: (path: string) => window.location.assign(path) };

/** The mailboxes shared with this member (GET user/shared-mailboxes): the account menu reads them when it opens. */
export const sharedMailboxesKey = ['user', 'shared-mailboxes'] as const;

/** The addresses other members delegated to this one (GET user/delegated-emails): the sidebar and settings/d_emails. */
export const delegatedEmailsKey = ['user', 'delegated-emails'] as const;

/** Where the page that follows keeps the address this tab was moved out of (sessionStorage: this tab only). */
export const LEFT_ADDRESS_KEY = 'mailroom.leftDelegatedAddress';

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
