import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CONTACT_SEARCH_SIZE,
  CONTACTS_PAGE_SIZE,
  type ContactImportResponse,
  type ContactInput,
  type ContactUpdate,
  type GroupMembersRequest,
} from '@mailroom/protocol';
import { call, request, routeUrl, routes } from '../../api/client';

/**
 * Query keys of the contacts and groups: this feature owns them. Everything under ['contacts'] is read again when
 * another tab changes contacts or groups (live.ts spells the prefixes again, see there).
 */
export const contactKeys = {
  all: ['contacts'] as const,
  lists: ['contacts', 'list'] as const,
  page: (page: number, size: number) => ['contacts', 'list', 'page', page, size] as const,
  search: (text: string) => ['contacts', 'list', 'search', text] as const,
  contact: (id: number) => ['contacts', 'contact', id] as const,
  groups: ['contacts', 'groups'] as const,
  group: (id: number) => ['contacts', 'group', id] as const,
  known: (email: string) => ['contacts', 'known', email.toLowerCase()] as const,
};

export const contactQueries = {
  /** A page of the list (SPEC §7 GET contacts?page=&size=; §9 100 a page). */
  page: (page: number, size = CONTACTS_PAGE_SIZE) =>
    queryOptions({
      queryKey: contactKeys.page(page, size),
      queryFn: ({ signal }) => call(routes.contacts, { query: { page, size }, signal }),
      placeholderData: keepPreviousData,
    }),
  /** A search as the user types (SPEC §7 GET contacts?size=1000&search=). */
  search: (text: string) =>
    queryOptions({
      queryKey: contactKeys.search(text),
      queryFn: ({ signal }) =>
        call(routes.contacts, { query: { size: CONTACT_SEARCH_SIZE, search: text }, signal }),
      placeholderData: keepPreviousData,
    }),
  groups: () =>
    queryOptions({
      queryKey: contactKeys.groups,
      queryFn: ({ signal }) => call(routes.groups, { signal }).then((response) => response.groups),
    }),
  group: (id: number) =>
    queryOptions({
      queryKey: contactKeys.group(id),
      queryFn: ({ signal }) => call(routes.group, { params: { id }, signal }).then((r) => r.group),
    }),
  known: (email: string) =>
    queryOptions({
      queryKey: contactKeys.known(email),
      queryFn: ({ signal }) => call(routes.knownContact, { query: { email }, signal }),
      staleTime: 5 * 60_000,
    }),
};

export function useContactPage(page: number, size: number) {
  return useQuery(contactQueries.page(page, size));
}

export function useContactSearch(text: string) {
  return useQuery({ ...contactQueries.search(text), enabled: text !== '' });
}

export function useGroups() {
  return useQuery(contactQueries.groups());
}

export function useGroup(id: number | null) {
  return useQuery({ ...contactQueries.group(id ?? 0), enabled: id !== null });
}

export function useKnownContact(email: string) {
  return useQuery({ ...contactQueries.known(email), enabled: email !== '' });
}

/** After any change: the lists, the groups (their counts) and the known-sender answers are read again. */
function useRefreshContacts() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: contactKeys.all });
}

// Forms show the server's refusal beside their fields (meta silent); the other changes raise the error dialog.

export function useCreateContact() {
  const refresh = useRefreshContacts();
  return useMutation({
    mutationFn: (contact: ContactInput) =>
      call(routes.createContact, { body: contact }).then((r) => r.contact),
    onSuccess: refresh,
    meta: { silent: true },
  });
}

export function useUpdateContact() {
  const refresh = useRefreshContacts();
  return useMutation({
    mutationFn: ({ id, contact }: { id: number; contact: ContactUpdate }) =>
      call(routes.updateContact, { params: { id }, body: contact }).then((r) => r.contact),
    onSuccess: refresh,
    meta: { silent: true },
  });
}

/** One contact (DELETE contacts/{id}) or several (POST contacts/delete). */
export function useDeleteContacts() {
  const refresh = useRefreshContacts();
  return useMutation({
    mutationFn: (ids: readonly number[]) =>
      ids.length === 1
        ? call(routes.deleteContact, { params: { id: ids[0]! } })
        : call(routes.deleteContacts, { body: { ids: [...ids] } }),
    onSuccess: refresh,
  });
}

export function useCreateGroup() {
  const refresh = useRefreshContacts();
  return useMutation({
    mutationFn: (name: string) => call(routes.createGroup, { body: { name } }).then((r) => r.group),
    onSuccess: refresh,
    meta: { silent: true },
  });
}

export function useRenameGroup() {
  const refresh = useRefreshContacts();
  return useMutation({
    mutationFn: ({ id, name }: { id: number; name: string }) =>
      call(routes.updateGroup, { params: { id }, body: { name } }).then((r) => r.group),
    onSuccess: refresh,
    meta: { silent: true },
  });
}

export function useDeleteGroup() {
  const refresh = useRefreshContacts();
  return useMutation({
    mutationFn: (id: number) => call(routes.deleteGroup, { params: { id } }),
    onSuccess: refresh,
  });
}

/** Adds contacts to a group and removes others from it (POST contacts/groups/{id}/contacts). */
export function useGroupMembers() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...change }: GroupMembersRequest & { id: number }) =>
      call(routes.groupMembers, { params: { id }, body: change }).then((r) => r.group),
    onSuccess: (group) => {
      client.setQueryData(contactKeys.group(group.id), group);
      return client.invalidateQueries({ queryKey: contactKeys.all });
    },
  });
}

/**
 * POST contacts/import with the file itself as the body (a vCard or CSV file; the server finds its kind and
 * charset), optionally putting every contact into a group. The server answers at once with the import, queued: it
 * runs as a job (useContactImport follows it). The form shows any refusal.
 */
export function useImportContacts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, group }: { file: Blob; group?: number }) =>
      request<ContactImportResponse>(routeUrl(routes.importContacts, { query: { group } }), {
        method: routes.importContacts.method,
        body: file,
      }),
    onSuccess: (started) => client.setQueryData(importKey(started.id), started),
    meta: { silent: true },
  });
}

/** An import's query key: not under contactKeys.all, so the lists' refresh does not read it again. */
const importKey = (id: number) => ['contactImport', id] as const;

export function isImportFinished(job: ContactImportResponse): boolean {
  return job.state === 'done' || job.state === 'failed';
}

/**
 * An import's progress (GET contacts/imports/{id}), read every half second while it runs; when it ends, the
 * contacts and groups are read again.
 */
export function useContactImport(id: number | null) {
  const refresh = useRefreshContacts();
  const query = useQuery({
    queryKey: importKey(id ?? 0),
    queryFn: ({ signal }) => call(routes.contactImport, { params: { id: id! }, signal }),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data && isImportFinished(q.state.data) ? false : 500),
  });
  const finished = query.data !== undefined && isImportFinished(query.data);
  useEffect(() => {
    if (finished) void refresh();
  }, [finished, refresh]);
  return query;
}

/** The address of the vCard download of every contact, or of one group's (GET contacts/export). */
export function exportUrl(group?: number): string {
  return routeUrl(routes.exportContacts, { query: { group } });
}
