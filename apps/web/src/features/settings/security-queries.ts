import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PasswordSetRequest,
  SecurityResponse,
  SendCodeRequest,
  SupportCreate,
  UserInfoUpdate,
} from '@mailroom/protocol';
import { call, routes } from '../../api/client';

/**
 * Query keys of the account's security (settings/access, ba, support): this feature owns them. live.ts spells the
 * prefixes again (see there): an updateAccount 'security' reads ['security'] again, 'support' ['support'].
 */
export const securityKeys = {
  all: ['security'] as const,
  settings: ['security', 'settings'] as const,
  authLog: (page: number, limit: number) => ['security', 'auth-log', page, limit] as const,
  baList: ['security', 'ba-list'] as const,
  supportAll: ['support'] as const,
  supportRequests: ['support', 'requests'] as const,
  supportDiagnostics: ['support', 'diagnostics'] as const,
};

/** Rows of the sign-in log a page. */
export const AUTH_LOG_PAGE_SIZE = 20;

export const securityQueries = {
  settings: () =>
    queryOptions({
      queryKey: securityKeys.settings,
      queryFn: ({ signal }) => call(routes.security, { signal }),
      meta: { showError: true },
    }),
  authLog: (page: number, limit = AUTH_LOG_PAGE_SIZE) =>
    queryOptions({
      queryKey: securityKeys.authLog(page, limit),
      queryFn: ({ signal }) => call(routes.authLog, { query: { page, limit }, signal }),
      placeholderData: keepPreviousData,
      meta: { showError: true },
    }),
  baList: () =>
    queryOptions({
      queryKey: securityKeys.baList,
      queryFn: ({ signal }) => call(routes.baList, { signal }),
      meta: { showError: true },
    }),
  supportRequests: () =>
    queryOptions({
      queryKey: securityKeys.supportRequests,
      // The requests sent and where they go (delivery 'kept': no support mailbox, the operator reads them).
      queryFn: ({ signal }) => call(routes.supportRequests, { signal }),
      meta: { showError: true },
    }),
  supportDiagnostics: () =>
    queryOptions({
      queryKey: securityKeys.supportDiagnostics,
      queryFn: ({ signal }) => call(routes.supportDiagnostics, { signal }).then((r) => r.diagnostics),
    }),
};

export const useSecurity = () => useQuery(securityQueries.settings());
export const useAuthLog = (page: number) => useQuery(securityQueries.authLog(page));
export const useBaList = () => useQuery(securityQueries.baList());
export const useSupportRequests = () => useQuery(securityQueries.supportRequests());
export const useSupportDiagnostics = (enabled: boolean) =>
  useQuery({ ...securityQueries.supportDiagnostics(), enabled });

/**
 * A change of the security settings: every one answers the settings again, which replace what the screen shows.
 * Silent unless said otherwise: the forms show the refusal beside their fields.
 */
function useSecurityChange<V>(send: (variables: V) => Promise<SecurityResponse>, silent = true) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    meta: { silent },
    onSuccess: (security) => client.setQueryData(securityKeys.settings, security),
  });
}

export function useUpdateUserInfo() {
  return useSecurityChange((body: UserInfoUpdate) => call(routes.updateUserInfo, { body }));
}

export function useSendPasswordCode() {
  return useMutation({
    mutationFn: (body: SendCodeRequest) => call(routes.sendPasswordCode, { body }),
    meta: { silent: true },
  });
}

/** password/new when the address has no password yet, password/change when it has one. */
export function useSetPassword() {
  return useSecurityChange(({ change, body }: { change: boolean; body: PasswordSetRequest }) =>
    call(change ? routes.changePassword : routes.newPassword, { body }),
  );
}

export type GrantKind = 'impersonation' | 'ba_impersonation';

export function useGrant(kind: GrantKind) {
  return useSecurityChange((member_id: string) =>
    call(kind === 'impersonation' ? routes.grantImpersonation : routes.grantBaImpersonation, {
      query: { member_id },
    }),
  );
}

/** Not silent: a refusal is shown in the error dialog over the confirmation, which stays open. */
export function useRevoke(kind: GrantKind) {
  return useSecurityChange(
    (member_id: string) =>
      call(kind === 'impersonation' ? routes.revokeImpersonation : routes.revokeBaImpersonation, {
        query: { member_id },
      }),
    false,
  );
}

export function useCreateSupportRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SupportCreate) => call(routes.createSupportRequest, { body }),
    meta: { silent: true },
    onSuccess: () => void client.invalidateQueries({ queryKey: securityKeys.supportRequests }),
  });
}
