import { sql, type RawBuilder } from 'kysely';

/**
 * Whether the `aliases` row of the query has password access: a `password_accesses` row of its address held by its
 * account (an address given to another account since keeps no access). Selected as `password_access` by the lists of
 * aliases and of addresses on domains; its primary key (email) answers it.
 */
export const hasPasswordAccess: RawBuilder<boolean> = sql<boolean>`exists (
  select 1 from password_accesses
  where password_accesses.email = aliases.email and password_accesses.account_id = aliases.account_id
)`;
