import type { AccessResponse, Account } from '@mailroom/protocol';

/**
 * The a_id an alias-only user is kept to (SPEC §6: alias selector locked): their alias's id, or null for a full
 * member, who may look at any alias or 'all'.
 */
export function lockedAliasId(user: AccessResponse | undefined, account: Account | undefined): string | null {
  const alias = user?.info.alias;
  if (!alias) return null;
  const match = account?.aliases.find((candidate) => candidate.email.toLowerCase() === alias.toLowerCase());
  return match ? String(match.id) : 'all';
}
