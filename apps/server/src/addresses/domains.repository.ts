import { sql, type Selectable } from 'kysely';
import type { DkimAlgorithm, DkimKeyState } from '@mailroom/protocol';
import { countRows, type Database, type Db, deleteRows, ownRow, type Trx } from '../core/db/index.js';

/**
 * SQL of `domains` and `domain_dkim_keys`, and what removing a domain does to its addresses (`aliases` kind 'domain',
 * their `delegations` and `password_accesses`). Every read of an account's domain names the account in the query
 * itself: another account's id finds nothing.
 */

export type DomainRow = Selectable<Database['domains']>;
export type DomainKeyRow = Selectable<Database['domain_dkim_keys']>;
export type DomainPatch = Partial<
  Pick<
    DomainRow,
    | 'status'
    | 'method'
    | 'failure_reason'
    | 'failure_found'
    | 'verified_at'
    | 'checked_at'
    | 'unverified_since'
    | 'confirm_started_at'
    | 'invoice_id'
    | 'catch_all_alias_id'
    | 'deleted_at'
  >
>;

export function insertDomain(
  trx: Trx,
  values: { accountId: number; name: string; displayName: string; token: string; paid: boolean },
): Promise<DomainRow> {
  return trx
    .insertInto('domains')
    .values({
      account_id: values.accountId,
      kind: 'own',
      name: values.name,
      display_name: values.displayName,
      token: values.token,
      paid: values.paid,
      status: values.paid ? 'unpaid' : 'prepared',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The account's own domain (not deleted): not another account's id, a deleted one, a public one. */
const accountDomain = (db: Db, accountId: number, domainId: number) =>
  db
    .selectFrom('domains')
    .selectAll()
    .where(ownRow(domainId, accountId))
    .where('kind', '=', 'own')
    .where('deleted_at', 'is', null);

/** The account's own domain (not deleted), or undefined: another account's id, a deleted one, a public one. */
export function findAccountDomain(
  db: Db,
  accountId: number,
  domainId: number,
): Promise<DomainRow | undefined> {
  return accountDomain(db, accountId, domainId).executeTakeFirst();
}

/** The same, its row locked. */
export function lockAccountDomain(
  trx: Trx,
  accountId: number,
  domainId: number,
): Promise<DomainRow | undefined> {
  return accountDomain(trx, accountId, domainId).forUpdate().executeTakeFirst();
}

/** An own domain by id (an invoice's subject), its row locked. */
export function lockOwnDomain(trx: Trx, domainId: number): Promise<DomainRow | undefined> {
  return trx
    .selectFrom('domains')
    .selectAll()
    .where('id', '=', domainId)
    .where('kind', '=', 'own')
    .forUpdate()
    .executeTakeFirst();
}

/** The account's domains that are not deleted, oldest first, with how many addresses each has. */
export function listAccountDomains(
  db: Db,
  accountId: number,
): Promise<(DomainRow & { emails_count: number })[]> {
  return db
    .selectFrom('domains')
    .selectAll('domains')
    .select((eb) =>
      eb
        .selectFrom('aliases')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('aliases.domain_id', '=', 'domains.id')
        .where('aliases.deleted_at', 'is', null)
        .as('emails_count'),
    )
    .where('domains.account_id', '=', accountId)
    .where('domains.kind', '=', 'own')
    .where('domains.deleted_at', 'is', null)
    .orderBy('domains.id')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, emails_count: Number(r.emails_count ?? 0) })));
}

/**
 * Why the name cannot be added by this account: 'own' (this account has it, not deleted), 'verified' (another account
 * has it verified), 'public' (one of the service's public domains), or undefined. Another account's unverified claim
 * does not block: whoever proves the domain first holds it.
 */
export async function nameHolding(
  db: Db,
  accountId: number,
  name: string,
): Promise<'own' | 'verified' | 'public' | undefined> {
  const rows = await db
    .selectFrom('domains')
    .select(['account_id', 'kind', 'status'])
    .where('name', '=', name)
    .where('deleted_at', 'is', null)
    .execute();
  if (rows.some((r) => r.kind === 'public')) return 'public';
  if (rows.some((r) => r.account_id === accountId)) return 'own';
  if (rows.some((r) => r.status === 'succeed')) return 'verified';
  return undefined;
}

/** The account's domains that are not deleted and not paid for: the free ones it holds. */
export async function countFreeDomains(db: Db, accountId: number): Promise<number> {
  return countRows(
    db
      .selectFrom('domains')
      .where('account_id', '=', accountId)
      .where('kind', '=', 'own')
      .where('paid', '=', false)
      .where('deleted_at', 'is', null),
  );
}

/** Whether the account has a domain waiting for its payment (unpaid or paying). */
export async function hasUnpaidDomain(db: Db, accountId: number): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('account_id', '=', accountId)
    .where('kind', '=', 'own')
    .where('status', 'in', ['unpaid', 'paying'])
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

export async function updateDomain(db: Db, domainId: number, patch: DomainPatch): Promise<void> {
  await db.updateTable('domains').set(patch).where('id', '=', domainId).execute();
}

/** The service's public domains (not deleted), by name. */
export function listPublicDomains(db: Db): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom('domains')
    .select(['id', 'name'])
    .where('kind', '=', 'public')
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .execute();
}

/**
 * PUBLIC_DOMAINS as rows (kind public, status succeed): the listed ones inserted when missing (another process may
 * insert the same at once: the unique index keeps one), the ones no longer listed marked deleted.
 */
export async function syncPublicDomains(
  trx: Trx,
  names: readonly string[],
  token: () => string,
): Promise<void> {
  for (const name of names) {
    await sql`
      insert into domains (account_id, kind, name, display_name, status, token, verified_at)
      select null, 'public', ${name}, ${name}, 'succeed', ${token()}, now()
      where not exists (select 1 from domains where kind = 'public' and name = ${name} and deleted_at is null)
      on conflict do nothing
    `.execute(trx);
  }
  let gone = trx
    .updateTable('domains')
    .set({ deleted_at: new Date() })
    .where('kind', '=', 'public')
    .where('deleted_at', 'is', null);
  if (names.length > 0) gone = gone.where('name', 'not in', [...names]);
  await gone.execute();
}

// ---- DKIM keys ----

export function listDomainKeys(db: Db, domainId: number): Promise<DomainKeyRow[]> {
  return db
    .selectFrom('domain_dkim_keys')
    .selectAll()
    .where('domain_id', '=', domainId)
    .orderBy('id')
    .execute();
}

export async function insertDomainKeys(
  trx: Trx,
  domainId: number,
  state: DkimKeyState,
  keys: { selector: string; algorithm: DkimAlgorithm; privateKey: string; publicKey: string }[],
): Promise<void> {
  if (keys.length === 0) return;
  await trx
    .insertInto('domain_dkim_keys')
    .values(
      keys.map((k) => ({
        domain_id: domainId,
        selector: k.selector,
        algorithm: k.algorithm,
        state,
        private_key: k.privateKey,
        public_key: k.publicKey,
      })),
    )
    .execute();
}

/** A next key becomes active; the active key of its algorithm retires until `retireAt`. */
export async function promoteDomainKey(trx: Trx, key: DomainKeyRow, retireAt: Date): Promise<void> {
  await trx
    .updateTable('domain_dkim_keys')
    .set({ state: 'retiring', retire_at: retireAt })
    .where('domain_id', '=', key.domain_id)
    .where('algorithm', '=', key.algorithm)
    .where('state', '=', 'active')
    .execute();
  await trx
    .updateTable('domain_dkim_keys')
    .set({ state: 'active', retire_at: null })
    .where('id', '=', key.id)
    .where('state', '=', 'next')
    .execute();
}

/** Retiring keys whose grace has run out go (their records may be removed from DNS). */
export async function deleteRetiredKeys(db: Db, now: Date): Promise<number> {
  return deleteRows(
    db.deleteFrom('domain_dkim_keys').where('state', '=', 'retiring').where('retire_at', '<=', now),
  );
}

/** The keys mail From the domain is signed with: the active ones of a verified own domain. */
export function activeKeysOfDomainName(
  db: Db,
  name: string,
): Promise<{ selector: string; algorithm: DkimAlgorithm; private_key: string }[]> {
  return db
    .selectFrom('domain_dkim_keys')
    .innerJoin('domains', 'domains.id', 'domain_dkim_keys.domain_id')
    .select(['domain_dkim_keys.selector', 'domain_dkim_keys.algorithm', 'domain_dkim_keys.private_key'])
    .where('domains.name', '=', name)
    .where('domains.kind', '=', 'own')
    .where('domains.status', '=', 'succeed')
    .where('domains.deleted_at', 'is', null)
    .where('domain_dkim_keys.state', '=', 'active')
    .orderBy('domain_dkim_keys.algorithm', 'desc')
    .execute();
}

// ---- the jobs' lists ----

/** Verified own domains, for the daily re-check. */
export function verifiedDomains(db: Db): Promise<DomainRow[]> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('kind', '=', 'own')
    .where('status', '=', 'succeed')
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Own domains whose confirm started before `before` and that were never verified since, not yet expired. */
export function unverifiedSince(db: Db, before: Date): Promise<DomainRow[]> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('kind', '=', 'own')
    .where('status', 'in', ['prepared', 'waiting', 'failed'])
    .where('confirm_started_at', '<', before)
    .where((eb) => eb.or([eb('failure_reason', 'is', null), eb('failure_reason', '<>', 'expired')]))
    .where('verified_at', 'is', null)
    .where('deleted_at', 'is', null)
    .execute();
}

// ---- removal ----

/**
 * A domain removed, in the caller's transaction: its addresses deleted (their mail stays), their delegations and
 * password access gone, its keys gone. Answers the addresses and the members they were delegated to.
 */
export async function removeDomainRows(
  trx: Trx,
  accountId: number,
  domainId: number,
  now: Date,
): Promise<{ emails: string[]; delegateAccountIds: number[] }> {
  await trx
    .updateTable('domains')
    .set({ deleted_at: now, catch_all_alias_id: null })
    .where('id', '=', domainId)
    .execute();
  const addresses = await trx
    .updateTable('aliases')
    .set({ deleted_at: now })
    .where('domain_id', '=', domainId)
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .returning(['id', 'email'])
    .execute();
  const ids = addresses.map((a) => a.id);
  const emails = addresses.map((a) => a.email);
  const delegations =
    ids.length > 0
      ? await trx
          .deleteFrom('delegations')
          .where('alias_id', 'in', ids)
          .returning('delegate_account_id')
          .execute()
      : [];
  if (emails.length > 0)
    await trx
      .deleteFrom('password_accesses')
      .where('account_id', '=', accountId)
      .where(
        sql<string>`lower(email)`,
        'in',
        emails.map((e) => e.toLowerCase()),
      )
      .execute();
  await trx.deleteFrom('domain_dkim_keys').where('domain_id', '=', domainId).execute();
  return { emails, delegateAccountIds: [...new Set(delegations.map((d) => d.delegate_account_id))] };
}
