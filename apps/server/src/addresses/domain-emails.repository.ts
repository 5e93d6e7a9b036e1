import { sql } from 'kysely';
import {
  type AddressStatus,
  countRows,
  type Db,
  type DomainKind,
  ownRow,
  type Trx,
} from '../core/db/index.js';
import { hasPasswordAccess } from './password-access.query.js';

/**
 * SQL of addresses on domains (aliases rows of kind 'domain'), of a domain's catch-all and of `delegations`. The
 * domains themselves (adding, verifying, removing) are domains.repository.ts's; here they are only read.
 */

export interface DomainRef {
  id: number;
  account_id: number | null;
  kind: DomainKind;
  name: string;
  status: string;
  catch_all_alias_id: number | null;
}

export interface DomainEmailRow {
  id: number;
  account_id: number;
  domain_id: number;
  email: string;
  status: AddressStatus;
  invoice_id: number | null;
  created_at: Date;
}

const domainColumns = ['id', 'account_id', 'kind', 'name', 'status', 'catch_all_alias_id'] as const;
const emailColumns = [
  'id',
  'account_id',
  'domain_id',
  'email',
  'status',
  'invoice_id',
  'created_at',
] as const;

/**
 * A domain the account may keep addresses on: its own (not deleted) or one of the service's public domains.
 * Another account's domain is undefined, like an unknown id.
 */
export function findUsableDomain(
  db: Db,
  accountId: number,
  domainId: number,
): Promise<DomainRef | undefined> {
  return db
    .selectFrom('domains')
    .select(domainColumns)
    .where('id', '=', domainId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('account_id', '=', accountId), eb('kind', '=', 'public')]))
    .executeTakeFirst();
}

/** The domain row, locked (catch-all changes). */
export function lockDomain(trx: Trx, domainId: number): Promise<DomainRef | undefined> {
  return trx
    .selectFrom('domains')
    .select(domainColumns)
    .where('id', '=', domainId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setCatchAll(trx: Trx, domainId: number, aliasId: number | null): Promise<void> {
  await trx.updateTable('domains').set({ catch_all_alias_id: aliasId }).where('id', '=', domainId).execute();
}

/**
 * The account's addresses that are not deleted, on one domain or (domainId undefined) on every domain, own or public,
 * oldest first, with password access, delegate and whether each is its domain's catch-all: one query.
 */
export function listDomainEmails(db: Db, accountId: number, domainId?: number) {
  let query = db
    .selectFrom('aliases')
    .innerJoin('domains', 'domains.id', 'aliases.domain_id')
    .leftJoin('delegations', 'delegations.alias_id', 'aliases.id')
    .leftJoin('accounts as delegate', 'delegate.id', 'delegations.delegate_account_id')
    .select(emailColumns.map((c) => `aliases.${c}` as const))
    .select(['delegate.member_id as delegate_member_id', 'delegate.name as delegate_name'])
    .select(hasPasswordAccess.as('password_access'))
    .select(sql<boolean>`domains.catch_all_alias_id is not distinct from aliases.id`.as('catch_all'))
    .where('aliases.account_id', '=', accountId)
    .where('aliases.kind', '=', 'domain')
    .where('aliases.deleted_at', 'is', null);
  if (domainId !== undefined) query = query.where('aliases.domain_id', '=', domainId);
  return query.orderBy('aliases.id').execute() as Promise<
    (DomainEmailRow & {
      delegate_member_id: string | null;
      delegate_name: string | null;
      password_access: boolean;
      catch_all: boolean;
    })[]
  >;
}

/** How many addresses on own domains the account holds (not deleted, not failed): the free ones count against this. */
export async function countOwnDomainEmails(trx: Trx, accountId: number): Promise<number> {
  return countRows(
    trx
      .selectFrom('aliases')
      .innerJoin('domains', 'domains.id', 'aliases.domain_id')
      .where('aliases.account_id', '=', accountId)
      .where('aliases.kind', '=', 'domain')
      .where('domains.kind', '=', 'own')
      .where('aliases.deleted_at', 'is', null)
      .where('aliases.status', '<>', 'failed'),
  );
}

export function insertDomainEmail(
  trx: Trx,
  values: { accountId: number; domainId: number; email: string; status: AddressStatus },
): Promise<DomainEmailRow> {
  return trx
    .insertInto('aliases')
    .values({
      account_id: values.accountId,
      email: values.email,
      kind: 'domain',
      status: values.status,
      domain_id: values.domainId,
    })
    .returning(emailColumns)
    .executeTakeFirstOrThrow() as Promise<DomainEmailRow>;
}

/** The account's address (not deleted) on that domain, its row locked; undefined for anything else. */
export function lockDomainEmail(
  trx: Trx,
  accountId: number,
  domainId: number | undefined,
  emailId: number,
): Promise<DomainEmailRow | undefined> {
  let query = trx
    .selectFrom('aliases')
    .select(emailColumns)
    .where(ownRow(emailId, accountId))
    .where('kind', '=', 'domain')
    .where('deleted_at', 'is', null);
  if (domainId !== undefined) query = query.where('domain_id', '=', domainId);
  return query.forUpdate().executeTakeFirst() as Promise<DomainEmailRow | undefined>;
}

/** An address on a domain by id (the subject of its invoice), its row locked. */
export function lockDomainEmailById(trx: Trx, emailId: number): Promise<DomainEmailRow | undefined> {
  return trx
    .selectFrom('aliases')
    .select(emailColumns)
    .where('id', '=', emailId)
    .where('kind', '=', 'domain')
    .forUpdate()
    .executeTakeFirst() as Promise<DomainEmailRow | undefined>;
}

export async function setDomainEmailStatus(trx: Trx, emailId: number, status: AddressStatus): Promise<void> {
  await trx.updateTable('aliases').set({ status }).where('id', '=', emailId).execute();
}

export function findDomainKind(db: Db, domainId: number) {
  return db
    .selectFrom('domains')
    .select(['kind', 'name', 'account_id'])
    .where('id', '=', domainId)
    .executeTakeFirst();
}

/** The address's delegate (undefined: none). */
export function findDelegation(db: Db, aliasId: number) {
  return db
    .selectFrom('delegations')
    .select(['delegate_account_id', 'created_at'])
    .where('alias_id', '=', aliasId)
    .executeTakeFirst();
}

/** Delegates the address (its previous delegation removed first: deleteDelegation). */
export async function insertDelegation(trx: Trx, aliasId: number, delegateAccountId: number): Promise<void> {
  await trx
    .insertInto('delegations')
    .values({ alias_id: aliasId, delegate_account_id: delegateAccountId })
    .execute();
}

/** Removes the address's delegation; answers the delegate it had (undefined: none). */
export async function deleteDelegation(trx: Trx, aliasId: number): Promise<number | undefined> {
  const row = await trx
    .deleteFrom('delegations')
    .where('alias_id', '=', aliasId)
    .returning('delegate_account_id')
    .executeTakeFirst();
  return row?.delegate_account_id;
}

/** The active addresses delegated to the account, with their owners, oldest delegation first. */
export function listDelegatedTo(db: Db, delegateAccountId: number) {
  return db
    .selectFrom('delegations')
    .innerJoin('aliases', 'aliases.id', 'delegations.alias_id')
    .innerJoin('accounts as owner', 'owner.id', 'aliases.account_id')
    .select([
      'aliases.id as alias_id',
      'aliases.email',
      'owner.id as owner_account_id',
      'owner.member_id as owner_member_id',
      'owner.name as owner_name',
      'delegations.created_at',
    ])
    .where('delegations.delegate_account_id', '=', delegateAccountId)
    .where('aliases.status', '=', 'succeed')
    .where('aliases.deleted_at', 'is', null)
    .orderBy('delegations.created_at')
    .orderBy('aliases.id')
    .execute();
}

/**
 * The active address `email` of `ownerAccountId` (any owner when undefined) delegated to the delegate; with `trx`, the
 * delegation row locked, so a revocation waits until a session opened under it is written (and then ends it).
 */
export function findDelegatedAddress(
  db: Db | Trx,
  delegateAccountId: number,
  email: string,
  ownerAccountId?: number,
  lock = false,
) {
  let query = db
    .selectFrom('aliases')
    .innerJoin('delegations', 'delegations.alias_id', 'aliases.id')
    .select(['aliases.id', 'aliases.account_id', 'aliases.email'])
    .where(sql`lower(aliases.email)`, '=', email.toLowerCase())
    .where('delegations.delegate_account_id', '=', delegateAccountId)
    .where('aliases.status', '=', 'succeed')
    .where('aliases.deleted_at', 'is', null);
  if (ownerAccountId !== undefined) query = query.where('aliases.account_id', '=', ownerAccountId);
  if (lock) query = query.forUpdate('delegations');
  return query.executeTakeFirst();
}

/** The active address by email with its owner, whoever holds it (a refused delegated opening is logged there too). */
export function findActiveAddressOwner(db: Db, email: string) {
  return db
    .selectFrom('aliases')
    .select(['id', 'account_id'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('status', '=', 'succeed')
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * One query per RCPT on a domain other than the mail domain: the hosted domain (verified own, or public), the active
 * address on it with that name, else the domain's active catch-all, and the account's quota. No row: not a domain we
 * host. The address lookup uses aliases_email_lower; the domain, domains_name.
 */
export function resolveDomainRecipient(db: Db, domain: string, email: string) {
  return db
    .selectFrom('domains')
    .leftJoin('aliases as direct', (join) =>
      join
        .on(sql`lower(direct.email)`, '=', email)
        .onRef('direct.domain_id', '=', 'domains.id')
        .on('direct.status', '=', 'succeed')
        .on('direct.deleted_at', 'is', null),
    )
    .leftJoin('aliases as catch_all', (join) =>
      join
        .onRef('catch_all.id', '=', 'domains.catch_all_alias_id')
        .on('catch_all.status', '=', 'succeed')
        .on('catch_all.deleted_at', 'is', null),
    )
    .leftJoin('accounts', (join) =>
      join.on(sql`accounts.id`, '=', sql`coalesce(direct.account_id, catch_all.account_id)`),
    )
    .select([
      'direct.id as direct_id',
      'catch_all.id as catch_all_id',
      'accounts.id as account_id',
      'accounts.quota_limit_bytes',
      'accounts.quota_used_bytes',
    ])
    .where('domains.name', '=', domain)
    .where('domains.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('domains.kind', '=', 'public'), eb('domains.status', '=', 'succeed')]))
    .executeTakeFirst();
}

/** Whether the name is a verified own domain or a public one (not deleted). */
export async function isServedDomain(db: Db, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('domains')
    .select('id')
    .where('name', '=', domain)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('kind', '=', 'public'), eb('status', '=', 'succeed')]))
    .executeTakeFirst();
  return row !== undefined;
}
