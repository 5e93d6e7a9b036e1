import {
  PAID_ALIAS_PRICE,
  validateAliasName,
  type AliasAccessUpdate,
  type AliasEntry,
  type AliasKind,
  type AliasesResponse,
  type PaidAlias,
  type PaidAliasesResponse,
} from '@mailroom/protocol';
import { isUniqueViolation, transact, type Db, type Trx } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import { lockAccount } from '../mailbox/index.js';
import { findAccountByEmail, passportLevelAtLeast, passportLevelOf } from '../accounts/index.js';
import {
  cancelInvoice,
  invoiceView,
  type InvoicePurposeHandler,
  type InvoiceRow,
  type WalletDeps,
} from '../wallet/index.js';
import {
  accessPasswordHash,
  changePasswordAccess,
  deletePasswordAccess,
  findAccountAlias,
  hasAliasHolding,
  insertAlias,
  isAliasNameTaken,
  listAccountAliases as aliasRowsOf,
  lockAccountAlias,
  lockActiveAliasByEmail,
  lockPaidAlias,
  markAliasDeleted,
  reviveFailedAlias,
  setAliasInvoice,
  setAliasStatus,
  type AliasRow,
} from '../addresses/index.js';
import { endAddressSessions } from '../auth/index.js';
import { invoiceOfRow, issueInvoice, requirePaidInvoice } from './address-invoices.js';

/**
 * The aliases of an account as the settings/aliases screen works them (SPEC §1, §5; the rules are the contract's,
 * packages/protocol schemas/aliases.ts): the rules every new alias passes, the free alias, deletion, password access,
 * and the paid aliases with their payment. Every change does its rule and what follows its commit: the owner's other
 * tabs told (updateAccount, part aliases), and an address gone or its password changed ends the sessions signed in
 * with it (auth owns sessions, which is why aliases live above auth, in user/).
 */
export interface AliasDeps extends WalletDeps {
  mailDomain: string;
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
}

function toAliasEntry(row: AliasRow, passwordAccess: boolean): AliasEntry {
  // Only free and paid aliases reach the aliases screen (listAccountAliases); a domain address is never one of them.
  if (row.kind === 'domain' || row.status === 'prepared')
    throw new Error(`aliases row ${row.id} is not an alias`);
  return {
    id: row.id,
    email: row.email,
    kind: row.kind,
    status: row.status,
    password_access: passwordAccess,
    created_at: row.created_at.toISOString(),
  };
}

/** The account's alias (not deleted), or alias_not_found: another account's id is never told apart. */
async function requireAccountAlias(db: Db, accountId: number, aliasId: number): Promise<AliasRow> {
  const row = await findAccountAlias(db, accountId, aliasId);
  if (!row) throw new DomainError('alias_not_found');
  return row;
}

/**
 * The rules every new alias passes, in the contract's order, each with its code: the name (validateAliasName), the
 * passport (at least formal), the name free across the service (aliases holding it, primary addresses), then the
 * count (one free alias; one paid alias on its way at a time). Answers the address to create. Run under the account
 * row's lock, so one account's requests are checked one after another; the unique indexes hold across accounts.
 */
async function checkNewAlias(
  trx: Trx,
  mailDomain: string,
  accountId: number,
  rawName: string,
  kind: AliasKind,
): Promise<string> {
  const name = rawName.trim();
  const invalid = validateAliasName(name);
  if (invalid) throw new DomainError(invalid);
  if (!passportLevelAtLeast(await passportLevelOf(trx, accountId), 'formal'))
    throw new DomainError('passport_level_required');
  const email = `${name.toLowerCase()}@${mailDomain}`;
  if ((await isAliasNameTaken(trx, email)) || (await findAccountByEmail(trx, email)))
    throw new DomainError('duplicate_aliases');
  if (await hasAliasHolding(trx, accountId, kind))
    throw new DomainError(kind === 'free' ? 'max_count_aliases' : 'alias_max_count_paying');
  return email;
}

/** Which rule a unique index refused an insert by (two requests raced past the checks). */
function raceError(err: unknown, kind: AliasKind): DomainError {
  const constraint = (err as { constraint?: string }).constraint;
  if (constraint === 'aliases_one_free' && kind === 'free') return new DomainError('max_count_aliases');
  if (constraint === 'aliases_one_paying') return new DomainError('alias_max_count_paying');
  return new DomainError('duplicate_aliases');
}

/**
 * Creates an alias that passed the rules: the free one active at once, a paid one unpaid (its name held until the
 * invoice is paid, rejected or given up). Inside the caller's transaction.
 */
async function insertCheckedAlias(
  trx: Trx,
  mailDomain: string,
  accountId: number,
  name: string,
  kind: AliasKind,
): Promise<AliasRow> {
  await lockAccount(trx, accountId);
  const email = await checkNewAlias(trx, mailDomain, accountId, name, kind);
  try {
    return await insertAlias(trx, { accountId, email, kind, status: kind === 'free' ? 'succeed' : 'unpaid' });
  } catch (err) {
    if (isUniqueViolation(err)) throw raceError(err, kind);
    throw err;
  }
}

/** The owner's other tabs told that the aliases changed. */
async function aliasesChanged(deps: AliasDeps, accountId: number): Promise<void> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'aliases' }]);
}

/** An alias gone: its password sessions end; the screen is told. */
async function aliasRemoved(deps: AliasDeps, accountId: number, email: string): Promise<void> {
  await endAddressSessions(deps, accountId, email);
  await aliasesChanged(deps, accountId);
}

/** GET user/aliases: every alias that is not deleted, oldest first; whether the free one is still to be taken. */
export async function listAccountAliases(deps: AliasDeps, accountId: number): Promise<AliasesResponse> {
  const rows = await aliasRowsOf(deps.db, accountId);
  return {
    aliases: rows.map((row) => toAliasEntry(row, row.password_access)),
    free_available: !rows.some((row) => row.kind === 'free' && row.status !== 'failed'),
    domain: deps.mailDomain,
  };
}

/** POST user/aliases: the free alias. */
export async function createAlias(deps: AliasDeps, accountId: number, name: string): Promise<AliasEntry> {
  const row = await transact(deps.db, (trx) =>
    insertCheckedAlias(trx, deps.mailDomain, accountId, name, 'free'),
  );
  await aliasesChanged(deps, accountId);
  return toAliasEntry(row, false);
}

/**
 * DELETE user/aliases/{id}: an active alias receives nothing from now on and its password access goes (its mail
 * stays); a paid one not active yet is given up as DELETE user/aliases/paid does it; being paid: alias_cant_delete.
 * Its password sessions end; the screen is told.
 */
export async function deleteAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<void> {
  const row = await requireAccountAlias(deps.db, accountId, aliasId);
  if (row.kind === 'paid' && row.status !== 'succeed') {
    await removePaidAlias(deps, accountId, row, 'alias_cant_delete');
    return;
  }
  const email = await transact(deps.db, async (trx) => {
    const locked = await lockAccountAlias(trx, accountId, aliasId);
    if (!locked) throw new DomainError('alias_not_found');
    if (locked.status !== 'succeed') throw new DomainError('alias_cant_delete');
    await markAliasDeleted(trx, locked.id);
    await deletePasswordAccess(trx, accountId, locked.email);
    return locked.email;
  });
  await aliasRemoved(deps, accountId, email);
}

/**
 * The rule of PUT user/aliases/update_access: sets (the password twice, equal) or removes (`password: null`) password
 * access to one of the account's active aliases, stored with scrypt, within the hourly count of changes
 * (changePasswordAccess). Answers the alias.
 */
export async function changeAliasAccess(
  db: Db,
  accountId: number,
  update: AliasAccessUpdate,
  now = new Date(),
): Promise<AliasEntry> {
  const email = update.email.trim();
  if (!email.includes('@')) throw new DomainError('alias_has_no_at');
  const passwordHash = await accessPasswordHash(update);
  return transact(db, async (trx) => {
    const row = await lockActiveAliasByEmail(trx, accountId, email);
    // An address on a domain is no alias: its password is set on the domain's screen (PUT …/emails/{id}/access).
    if (!row || row.kind === 'domain') throw new DomainError('alias_not_found');
    await changePasswordAccess(trx, accountId, row, passwordHash, now);
    return toAliasEntry(row, passwordHash !== null);
  });
}

/**
 * PUT user/aliases/update_access. Removing the access ends the sessions signed in with it; so does a new password,
 * since whoever knew the old one is to be out.
 */
export async function updateAliasAccess(
  deps: AliasDeps,
  accountId: number,
  update: AliasAccessUpdate,
): Promise<AliasEntry> {
  const alias = await changeAliasAccess(deps.db, accountId, update);
  await endAddressSessions(deps, accountId, alias.email);
  await aliasesChanged(deps, accountId);
  return alias;
}

// ---- paid aliases ----

/**
 * Paid aliases (SPEC §1: PAID_ALIAS_PRICE units each; §4: unpaid invoice → 'I have already paid' → payment checked).
 * Creating one holds the name (the alias row, status unpaid) and issues an invoice through the wallet. Its status then
 * changes only in the 'alias' purpose's handler, which settleInvoice calls exactly once per invoice, whatever reports
 * the payment (check_payment here, the wallet's webhook, the reconciliation job, the sandbox page): paid → succeed (it
 * receives mail from then on), rejected, expired or cancelled → failed (the name free again). A change of the alias by
 * its payment is told by that handler, after its commit, whichever path settled the invoice.
 */

/** The purpose paid aliases' invoices are issued for (invoices.purpose; subject_id is the alias's id). */
export const ALIAS_INVOICE_PURPOSE = 'alias';

/**
 * What settling a paid alias's invoice does, inside settleInvoice's transaction under the invoice's lock: the alias
 * activated or failed, and, once that transaction commits, the owner's tabs told (updateAccount aliases) whichever
 * path settled it.
 */
export function aliasInvoicePurpose(deps: { events: EventBus; log: PublishLog }): InvoicePurposeHandler {
  const settle = async (trx: Trx, invoice: InvoiceRow, status: 'succeed' | 'failed') => {
    // By the invoice's subject, not aliases.invoice_id: a payment may be reported before that link is written.
    const alias = await lockPaidAlias(trx, invoice.subject_id);
    // Only an alias still waiting for its payment changes (a given-up alias was failed by its cancelled invoice).
    if (!alias || (alias.status !== 'unpaid' && alias.status !== 'paying')) return;
    await setAliasStatus(trx, alias.id, status);
    await emit(trx, deps, alias.account_id, [{ event: 'updateAccount', part: 'aliases' }]);
  };
  return {
    onPaid: (trx, invoice) => settle(trx, invoice, 'succeed'),
    onFailed: (trx, invoice) => settle(trx, invoice, 'failed'),
    // Paid after the invoice was given up: the alias is the member's after all, if its name is still free.
    onPaidLate: async (trx, invoice) => {
      const accountId = await reviveFailedAlias(trx, invoice.subject_id);
      if (accountId === undefined) return false;
      await emit(trx, deps, accountId, [{ event: 'updateAccount', part: 'aliases' }]);
      return true;
    },
  };
}

const invoiceOf = (deps: WalletDeps, row: AliasRow) => invoiceOfRow(deps.db, ALIAS_INVOICE_PURPOSE, row);

/** The account's paid alias by id (not deleted), or alias_not_found (a free alias's id too). */
async function requirePaidAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<AliasRow> {
  const row = await requireAccountAlias(deps.db, accountId, aliasId);
  if (row.kind !== 'paid') throw new DomainError('alias_not_found');
  return row;
}

/** GET user/aliases/paid: the paid aliases that are not deleted, oldest first, each with its invoice. */
export async function listPaidAliases(deps: AliasDeps, accountId: number): Promise<PaidAliasesResponse> {
  const rows = await aliasRowsOf(deps.db, accountId, 'paid');
  const withInvoices = await Promise.all(
    rows.map(async (row) => ({ row, invoice: await invoiceOf(deps, row) })),
  );
  return {
    paid_aliases: withInvoices.flatMap(({ row, invoice }) =>
      invoice ? [{ ...toAliasEntry(row, row.password_access), invoice: invoiceView(invoice) }] : [],
    ),
  };
}

/**
 * POST user/aliases/paid: the rules of every alias (one paid alias on its way at a time), the name held by an unpaid
 * alias, then the invoice issued at the wallet (outside the transaction: the wallet may be slow). When the wallet
 * cannot issue it, the hold is let go at once (no invoice, nothing to pay) and the error told.
 */
export async function buyAlias(deps: AliasDeps, accountId: number, name: string): Promise<PaidAlias> {
  const alias = await transact(deps.db, (trx) =>
    insertCheckedAlias(trx, deps.mailDomain, accountId, name, 'paid'),
  );
  const invoice = await issueInvoice(
    deps,
    {
      accountId,
      purpose: ALIAS_INVOICE_PURPOSE,
      subjectId: alias.id,
      price: PAID_ALIAS_PRICE,
      description: `Mailroom alias ${alias.email}`,
    },
    () => transact(deps.db, (trx) => markAliasDeleted(trx, alias.id)),
  );
  await transact(deps.db, (trx) => setAliasInvoice(trx, alias.id, invoice.id));
  await aliasesChanged(deps, accountId);
  return { ...toAliasEntry({ ...alias, invoice_id: invoice.id }, false), invoice: invoiceView(invoice) };
}

/**
 * POST user/aliases/paid/{id}/check_payment ('I have already paid'): the wallet asked how the invoice stands and the
 * answer settled (the purpose's handler changes the alias and tells of it). Paid: the active alias; still unpaid:
 * pay_invoice; rejected, expired or cancelled: pay_invoice_cancel (the alias failed, its name free again).
 */
export async function checkPayment(deps: AliasDeps, accountId: number, aliasId: number): Promise<PaidAlias> {
  const row = await requirePaidAlias(deps, accountId, aliasId);
  const invoice = await requirePaidInvoice(deps, await invoiceOf(deps, row));
  const entry = (await aliasRowsOf(deps.db, accountId, 'paid')).find((r) => r.id === aliasId);
  if (!entry) throw new DomainError('alias_not_found');
  return { ...toAliasEntry(entry, entry.password_access), invoice: invoiceView(invoice) };
}

/**
 * DELETE user/aliases/paid/{id} (and DELETE user/aliases/{id} of a paid alias not active): an unpaid one is given up —
 * its invoice cancelled at the wallet (the handler fails the alias, freeing the name), then the alias deleted; a failed
 * one deleted; a succeeded one deleted like any active alias. Paid at the wallet meanwhile: the alias is active now and
 * stays (alias_cant_delete), so a payment is never thrown away unseen. Being paid: `paying`, the caller's code. Its
 * password sessions end; the screen is told.
 */
async function removePaidAlias(
  deps: AliasDeps,
  accountId: number,
  row: AliasRow,
  paying: 'alias_cant_delete' | 'error_alias_status_paying',
): Promise<void> {
  if (row.status === 'paying') throw new DomainError(paying);
  const issued = row.status === 'unpaid' ? await invoiceOf(deps, row) : undefined;
  if (issued) {
    const { invoice } = await cancelInvoice(deps, issued.id);
    if (invoice.status === 'paid')
      throw new DomainError('alias_cant_delete', 'The alias has been paid for meanwhile');
  }
  const email = await transact(deps.db, async (trx) => {
    const locked = await lockAccountAlias(trx, accountId, row.id);
    if (!locked) throw new DomainError('alias_not_found');
    if (locked.status === 'paying') throw new DomainError(paying);
    // Still unpaid here: its invoice was never issued (the issuing failed or crashed), so there is nothing to pay.
    // An invoice issued meanwhile (a create still running) would be left to pay for nothing: refuse until it settles.
    if (locked.status === 'unpaid') {
      const invoice = await invoiceOfRow(trx, ALIAS_INVOICE_PURPOSE, locked);
      if (invoice?.status === 'unpaid') throw new DomainError('alias_cant_delete');
    }
    await markAliasDeleted(trx, locked.id);
    await deletePasswordAccess(trx, accountId, locked.email);
    return locked.email;
  });
  await aliasRemoved(deps, accountId, email);
}

/** DELETE user/aliases/paid/{id}: another account's id, or a free alias's, is alias_not_found. */
export async function giveUpPaidAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<void> {
  const row = await requirePaidAlias(deps, accountId, aliasId);
  await removePaidAlias(deps, accountId, row, 'error_alias_status_paying');
}
