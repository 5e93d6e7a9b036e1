import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { DomainDetailResponse, DomainEmailAccess, VerificationMethod } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { accountKeys, refreshWithAccount, useAccountWrite } from '../account';
import { delegatedEmailsKey } from '../shell';

/** The domain screens' queries (live.ts spells `all` again). */
export const domainKeys = {
  all: ['domains'] as const,
  list: ['domains', 'list'] as const,
  detail: (id: number) => ['domains', 'detail', id] as const,
  emails: (id: number) => ['domains', 'emails', id] as const,
  /** Every address of the account on any domain (GET user/domains/emails). */
  allEmails: ['domains', 'allEmails'] as const,
  /** The service's public domains (GET user/domains/public). */
  public: ['domains', 'public'] as const,
};

export const domainQueries = {
  list: () =>
    queryOptions({
      queryKey: domainKeys.list,
      queryFn: ({ signal }) => call(routes.domains, { signal }).then(({ domains }) => domains),
      meta: { showError: true },
    }),
  /** GET user/domains/{id}: the domain with its DNS health (looked up by the server), DKIM keys and zone. */
  detail: (id: number) =>
    queryOptions({
      queryKey: domainKeys.detail(id),
      queryFn: ({ signal }) => call(routes.domain, { params: { id }, signal }),
    }),
  emails: (id: number) =>
    queryOptions({
      queryKey: domainKeys.emails(id),
      queryFn: ({ signal }) =>
        call(routes.domainEmails, { params: { id }, signal }).then(({ emails }) => emails),
    }),
  /** One read of every address on a domain, own or public: settings/access and the public addresses' list. */
  allEmails: () =>
    queryOptions({
      queryKey: domainKeys.allEmails,
      queryFn: ({ signal }) => call(routes.allDomainEmails, { signal }).then(({ emails }) => emails),
    }),
  publicDomains: () =>
    queryOptions({
      queryKey: domainKeys.public,
      queryFn: ({ signal }) => call(routes.publicDomains, { signal }).then(({ domains }) => domains),
      staleTime: 5 * 60_000,
    }),
  delegated: () =>
    queryOptions({
      queryKey: delegatedEmailsKey,
      queryFn: ({ signal }) => call(routes.delegatedEmails, { signal }).then(({ emails }) => emails),
    }),
};

export const useDomains = () => useQuery(domainQueries.list());
export const useDomainDetail = (id: number) => useQuery(domainQueries.detail(id));
export const useDomainEmails = (id: number) => useQuery(domainQueries.emails(id));
export const useAllDomainEmails = () => useQuery(domainQueries.allEmails());
export const usePublicDomains = () => useQuery(domainQueries.publicDomains());
export const useDelegatedEmails = () => useQuery(domainQueries.delegated());

/**
 * After any change of a domain or an address on it: the screens' queries, and the account (its addresses are the
 * sidebar's address list and compose's From), are read again.
 */
export const refreshDomains = (client: QueryClient) => refreshWithAccount(client, domainKeys.all);

/** A write whose errors the screen shows beside what was done (silent), after which everything is read again. */
const useDomainMutation = <V, R>(send: (variables: V) => Promise<R>, silent = true) =>
  useAccountWrite(domainKeys.all, send, silent);

/** A write that answers the domain's detail (confirm, check, rotate): the answer is the detail query's new data. */
function useDetailMutation<V>(send: (variables: V) => Promise<DomainDetailResponse>, silent = true) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    meta: { silent },
    onSuccess: (detail) => client.setQueryData(domainKeys.detail(detail.domain.id), detail),
    onSettled: () =>
      void Promise.all([
        client.invalidateQueries({ queryKey: domainKeys.list }),
        client.invalidateQueries({ queryKey: accountKeys.account }),
      ]),
  });
}

/** POST user/domains: errors beside the name. */
export const useCreateDomain = () =>
  useDomainMutation((name: string) =>
    call(routes.createDomain, { body: { name } }).then(({ domain }) => domain),
  );

/** POST user/domains/{id}/confirm with the method chosen, or POST …/check to run the last one again. */
export const useVerifyDomain = () =>
  useDetailMutation(({ id, method }: { id: number; method: VerificationMethod | null }) =>
    method
      ? call(routes.confirmDomain, { params: { id }, body: { method } })
      : call(routes.checkDomain, { params: { id } }),
  );

/** POST user/domains/{id}/dkim/rotate: a new selector published first, the old one kept for its grace period. */
export const useRotateDkim = () =>
  useDetailMutation((id: number) => call(routes.rotateDomainDkim, { params: { id } }), false);

/** 'I have already paid' for a domain (pay_invoice and pay_invoice_cancel are answers shown beside it). */
export const useCheckDomainPayment = () =>
  useDomainMutation((id: number) =>
    call(routes.checkDomainPayment, { params: { id } }).then(({ domain }) => domain),
  );

/** DELETE user/domains/{id}?confirm=<the word typed>. */
export const useDeleteDomain = () =>
  useDomainMutation(({ id, confirm }: { id: number; confirm: string }) =>
    call(routes.deleteDomain, { params: { id }, query: { confirm } }),
  );

type EmailRef = { domainId: number; emailId: number };

/**
 * POST user/domains/{id}/emails: on an own domain the address is made prepared (confirm activates it), or unpaid with
 * an invoice beyond the free number; on a public domain always unpaid with an invoice.
 */
export const useCreateDomainEmail = () =>
  useDomainMutation(({ domainId, name, catchAll }: { domainId: number; name: string; catchAll: boolean }) =>
    call(routes.createDomainEmail, {
      params: { id: domainId },
      body: { name, catch_all: catchAll },
    }).then(({ email }) => email),
  );

/** POST user/domains/emails/{email_id}/confirm: activates a prepared address once the MX points at the service. */
export const useConfirmDomainEmail = () =>
  useDomainMutation(({ emailId }: EmailRef) =>
    call(routes.confirmDomainEmail, { params: { emailId } }).then(({ email }) => email),
  );

/** PUT …/emails/{email_id} {catch_all}. */
export const useSetCatchAll = () =>
  useDomainMutation(
    ({ domainId, emailId, catchAll }: EmailRef & { catchAll: boolean }) =>
      call(routes.updateDomainEmail, {
        params: { id: domainId, emailId },
        body: { catch_all: catchAll },
      }).then(({ email }) => email),
    false,
  );

/** PATCH …/emails/{email_id} {member_id}: delegate to that member, or (null) remove the delegation. */
export const useDelegateDomainEmail = () =>
  useDomainMutation(({ domainId, emailId, memberId }: EmailRef & { memberId: string | null }) =>
    call(routes.delegateDomainEmail, {
      params: { id: domainId, emailId },
      body: { member_id: memberId },
    }).then(({ email }) => email),
  );

/** DELETE …/emails/{email_id}: the address stops receiving; its mail stays. */
export const useDeleteDomainEmail = () =>
  useDomainMutation(
    ({ domainId, emailId }: EmailRef) =>
      call(routes.deleteDomainEmail, { params: { id: domainId, emailId } }),
    false,
  );

/** PUT …/emails/{email_id}/access: set a password (twice) or remove it (null). */
export const useDomainEmailAccess = () =>
  useDomainMutation(({ domainId, emailId, access }: EmailRef & { access: DomainEmailAccess }) =>
    call(routes.domainEmailAccess, { params: { id: domainId, emailId }, body: access }).then(
      ({ email }) => email,
    ),
  );

/** 'I have already paid' for a paid address on a domain. */
export const useCheckDomainEmailPayment = () =>
  useDomainMutation(({ domainId, emailId }: EmailRef) =>
    call(routes.checkDomainEmailPayment, { params: { id: domainId, emailId } }).then(({ email }) => email),
  );
