/** The full-page load into the other mailbox (an object, so tests can watch it: jsdom does not navigate). */
export const mailboxNavigation = { assign: (path: string) => window.location.assign(path) };

/** The mailboxes shared with this member (GET user/shared-mailboxes): the account menu reads them when it opens. */
export const sharedMailboxesKey = ['user', 'shared-mailboxes'] as const;

/** The addresses other members delegated to this one (GET user/delegated-emails): the sidebar and settings/d_emails. */
export const delegatedEmailsKey = ['user', 'delegated-emails'] as const;

/** Where the page that follows keeps the address this tab was moved out of (sessionStorage: this tab only). */
export const LEFT_ADDRESS_KEY = 'mailroom.leftDelegatedAddress';

/** Whether this tab was moved out of a delegated address (followSessionChange): then leftAddressNotice has to run. */
export function movedOutOfAddress(): boolean {
  try {
    return sessionStorage.getItem(LEFT_ADDRESS_KEY) !== null;
  } catch {
    return false;
  }
}
