import type { Account } from '@mailroom/protocol';

/**
 * Every address that is the user's own, in lower case: primary, aliases and profiles (reply-all leaves these out;
 * the reader shows Bcc on mail sent from one of them).
 */
export function ownAddresses(account: Account): Set<string> {
  return new Set(
    [account.email, ...account.aliases.map((a) => a.email), ...account.profiles.map((p) => p.email)].map(
      (email) => email.toLowerCase(),
    ),
  );
}
