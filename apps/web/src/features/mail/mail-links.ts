import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { COMPOSE_MODE, isEmail, type MailAddress } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { useCompose } from '../compose';
import { folderPath, labelPath } from '../folders';
import { emptySearchForm, searchPath } from '../search';

/** What a link to /mail asks for through its query (SPEC §2: uid, label, message_id, recipient, sender, group). */
export interface MailLink {
  /** The message to open: by its Message-ID, or by its uid in the Inbox. */
  open: { messageId: string } | { uid: number } | null;
  /** A label's list to show. */
  label: number | null;
  /** A search for mail from this address. */
  sender: string | null;
  /**
   * A new message to these people, opened over the list: each `recipient` parameter an address or
   * "Name <address>" (the contacts screen's 'write to' names them).
   */
  recipients: MailAddress[];
  /** A new message to every member of this contact group (the contacts screen's 'write to group'). */
  group: number | null;
}

function positiveId(value: string | null): number | null {
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}

function address(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  return isEmail(trimmed) ? trimmed : null;
}

/** 'ann@x.org' or 'Ann Lee <ann@x.org>' (quotes around the name allowed); null when there is no address in it. */
function person(value: string): MailAddress | null {
  const named = /^\s*"?([^"<>]*?)"?\s*<([^<>]+)>\s*$/.exec(value);
  const email = address(named ? named[2]! : value);
  return email ? { name: named ? named[1]!.trim() : '', email } : null;
}

/** The recipients of a link, each once (the first spelling kept). */
function recipientsOf(values: readonly string[]): MailAddress[] {
  const seen = new Set<string>();
  const result: MailAddress[] = [];
  for (const value of values) {
    const found = person(value);
    if (!found || seen.has(found.email.toLowerCase())) continue;
    seen.add(found.email.toLowerCase());
    result.push(found);
  }
  return result;
}

/** Reads the query of a /mail link; anything malformed is left out, as if it were not there. */
export function readMailLink(search: URLSearchParams): MailLink {
  const messageId = search.get('message_id')?.trim();
  const uid = positiveId(search.get('uid'));
  return {
    open: messageId ? { messageId } : uid !== null ? { uid } : null,
    label: positiveId(search.get('label')),
    sender: address(search.get('sender')),
    recipients: recipientsOf(search.getAll('recipient')),
    group: positiveId(search.get('group')),
  };
}

/**
 * Where /mail goes for a link's query, given the view's alias and the Inbox: the path, `null` while a message
 * named by Message-ID is looked up, or `undefined` when the query asks for no list of its own (the Inbox it is).
 * Recipients, or a group's members, open compose once, whichever list shows.
 */
export function useMailLinkTarget(link: MailLink, aliasId: string, inboxId: number | undefined) {
  const byMessageId = link.open && 'messageId' in link.open ? link.open.messageId : null;
  const found = useQuery({
    queryKey: ['messages', 'by-message-id', byMessageId],
    queryFn: () => call(routes.messageById, { query: { message_id: byMessageId! } }),
    enabled: byMessageId !== null,
    retry: false,
    // Not found (or not the user's) is said in the error box; the Inbox shows instead.
    meta: { showError: true },
  });

  // A group's members are read once (their primary addresses, with their names); compose opens when they are in.
  const group = useQuery({
    queryKey: ['mail', 'link-group', link.group],
    queryFn: ({ signal }) => call(routes.group, { params: { id: link.group! }, signal }),
    enabled: link.group !== null,
    retry: false,
    // Read afresh for each link: a group's members change on the contacts screen.
    gcTime: 0,
    meta: { showError: true },
  });
  const members = group.data?.group.contacts;
  const composed = useRef(false);
  useEffect(() => {
    if (composed.current) return;
    if (link.group !== null && !members && !group.isError) return;
    const to = [...link.recipients];
    for (const contact of members ?? []) {
      if (contact.email && !to.some((known) => known.email.toLowerCase() === contact.email.toLowerCase()))
        to.push({ name: `${contact.name} ${contact.surname}`.trim(), email: contact.email });
    }
    if (to.length === 0) return;
    composed.current = true;
    useCompose.getState().openCompose({ mode: COMPOSE_MODE.NEW, to });
  }, [link.recipients, link.group, members, group.isError]);

  // The list waits for the group's members, so compose opens over it with them (this screen is gone by then).
  if (link.group !== null && group.isPending) return null;
  if (byMessageId !== null) {
    if (found.data) {
      const { folder_id, uid } = found.data.message;
      return `${folderPath(aliasId, folder_id)}/${uid}`;
    }
    if (found.isPending) return null;
  }
  if (link.open && 'uid' in link.open && inboxId !== undefined)
    return `${folderPath(aliasId, inboxId)}/${link.open.uid}`;
  if (link.label !== null) return labelPath(aliasId, link.label);
  if (link.sender !== null)
    return searchPath(aliasId, null, null, 1, {
      ...emptySearchForm,
      text: link.sender,
      allFolders: true,
      body: false,
      sender: true,
    });
  return undefined;
}
