import type {
  Domain,
  DomainDetailResponse,
  DomainsResponse,
  PublicDomainsResponse,
  VerificationMethod,
} from '@mailroom/protocol';
import { emit, type EventBus, type PublishLog } from '../core/events/index.js';
import {
  addDomain,
  checkDomain,
  checkDomainPayment,
  confirmDomain,
  domainDetailOf,
  domainsOf,
  publicDomainsOf,
  removeDomain,
  rotateDomainDkim,
  type DomainDeps,
} from '../addresses/index.js';
import { endAddressSessions } from '../auth/index.js';

/**
 * settings/domains as the screen works it (the rules are addresses/'s): every change told to the owner's other tabs
 * (updateAccount, part domains); removing a domain ends the open sessions of its addresses (password access) and
 * tells the members who had one of them delegated (part delegated). A paid domain's payment is told by the 'domain'
 * invoice purpose's handler itself.
 */
export interface DomainRouteDeps extends DomainDeps {
  events: EventBus;
  log: PublishLog & { warn(obj: object, msg: string): void };
}

async function changed(deps: DomainRouteDeps, accountId: number): Promise<void> {
  await emit(deps.db, deps, accountId, [{ event: 'updateAccount', part: 'domains' }]);
}

export function listDomains(deps: DomainRouteDeps, accountId: number): Promise<DomainsResponse> {
  return domainsOf(deps, accountId);
}

export function listPublicDomains(deps: DomainRouteDeps): Promise<PublicDomainsResponse> {
  return publicDomainsOf(deps.db);
}

export function showDomain(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
): Promise<DomainDetailResponse> {
  return domainDetailOf(deps, accountId, domainId);
}

export async function createDomain(deps: DomainRouteDeps, accountId: number, name: string): Promise<Domain> {
  const domain = await addDomain(deps, accountId, name);
  await changed(deps, accountId);
  return domain;
}

export async function startDomainConfirm(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
  method: VerificationMethod,
): Promise<DomainDetailResponse> {
  try {
    return await confirmDomain(deps, accountId, domainId, method);
  } finally {
    await changed(deps, accountId);
  }
}

export async function recheckDomain(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
): Promise<DomainDetailResponse> {
  try {
    return await checkDomain(deps, accountId, domainId);
  } finally {
    await changed(deps, accountId);
  }
}

/** 'I have already paid': a change is told by the purpose's handler, not here. */
export function checkPayment(deps: DomainRouteDeps, accountId: number, domainId: number): Promise<Domain> {
  return checkDomainPayment(deps, accountId, domainId);
}

export async function rotateDkim(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
): Promise<DomainDetailResponse> {
  const detail = await rotateDomainDkim(deps, accountId, domainId);
  await changed(deps, accountId);
  return detail;
}

export async function deleteDomain(
  deps: DomainRouteDeps,
  accountId: number,
  domainId: number,
  confirmWord: string | undefined,
): Promise<void> {
  const { emails, delegateAccountIds } = await removeDomain(deps, accountId, domainId, confirmWord);
  for (const email of emails) await endAddressSessions(deps, accountId, email);
  await changed(deps, accountId);
  for (const delegate of delegateAccountIds)
    await emit(deps.db, deps, delegate, [{ event: 'updateAccount', part: 'delegated' }]);
}
