import type {
  AliasAccessUpdate,
  AliasEntry,
  AliasesResponse,
  PaidAlias,
  PaidAliasesResponse,
} from '@mailroom/protocol';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import {
  aliasesOf,
  changeAliasAccess,
  checkAliasPayment,
  createFreeAlias,
  createPaidAlias,
  deletePaidAlias,
  paidAliasesOf,
  removeAlias,
  type PaidAliasDeps,
} from '../addresses/index.js';
import { endAddressSessions } from '../auth/index.js';

/**
 * The aliases as the settings/aliases screen works them (the rules are addresses/'s): every change is told to the
 * owner's other tabs (updateAccount, part aliases), and what ends an address's password access ends its open
 * sessions too (auth owns sessions, which is why this sits above auth). A paid alias's payment is told by the
 * 'alias' invoice purpose's handler itself, after its commit, whichever path settled the invoice.
 */
export interface AliasDeps extends PaidAliasDeps {
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
}

async function changed(deps: AliasDeps, accountId: number): Promise<void> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'aliases' }]);
}

export function listAccountAliases(deps: AliasDeps, accountId: number): Promise<AliasesResponse> {
  return aliasesOf(deps.db, deps.mailDomain, accountId);
}

export async function createAlias(deps: AliasDeps, accountId: number, name: string): Promise<AliasEntry> {
  const alias = await createFreeAlias(deps.db, deps.mailDomain, accountId, name);
  await changed(deps, accountId);
  return alias;
}

/** An alias gone: its password sessions end; the screen is told. */
async function removed(deps: AliasDeps, accountId: number, email: string): Promise<void> {
  await endAddressSessions(deps, accountId, email);
  await changed(deps, accountId);
}

export async function deleteAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<void> {
  const { email } = await removeAlias(deps, accountId, aliasId);
  await removed(deps, accountId, email);
}

/**
 * Sets or removes an alias's password access. Removing it ends the sessions signed in with it; so does a new
 * password, since whoever knew the old one is to be out.
 */
export async function updateAliasAccess(
  deps: AliasDeps,
  accountId: number,
  update: AliasAccessUpdate,
): Promise<AliasEntry> {
  const alias = await changeAliasAccess(deps.db, accountId, update);
  await endAddressSessions(deps, accountId, alias.email);
  await changed(deps, accountId);
  return alias;
}

export function listPaidAliases(deps: AliasDeps, accountId: number): Promise<PaidAliasesResponse> {
  return paidAliasesOf(deps, accountId);
}

export async function buyAlias(deps: AliasDeps, accountId: number, name: string): Promise<PaidAlias> {
  const alias = await createPaidAlias(deps, accountId, name);
  await changed(deps, accountId);
  return alias;
}

/** 'I have already paid': a change of the alias is told by the purpose's handler, not here. */
export function checkPayment(deps: AliasDeps, accountId: number, aliasId: number): Promise<PaidAlias> {
  return checkAliasPayment(deps, accountId, aliasId);
}

export async function giveUpPaidAlias(deps: AliasDeps, accountId: number, aliasId: number): Promise<void> {
  const { email } = await deletePaidAlias(deps, accountId, aliasId);
  await removed(deps, accountId, email);
}
