import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { COMPOSE_MODE, isEmail } from '@mailroom/protocol';
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
  /** A new message to this address, opened over the list. */
  recipient: string | null;
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

/** Reads the query of a /mail link; anything malformed is left out, as if it were not there. */
export function readMailLink(search: URLSearchParams): MailLink {
  const messageId = search.get('message_id')?.trim();
  const uid = positiveId(search.get('uid'));
  return {
    open: messageId ? { messageId } : uid !== null ? { uid } : null,
    label: positiveId(search.get('label')),
    sender: address(search.get('sender')),
    recipient: address(search.get('recipient')),
  };
}

/**
 * Where /mail goes for a link's query, given the view's alias and the Inbox: the path, `null` while a message
 * named by Message-ID is looked up, or `undefined` when the query asks for no list of its own (the Inbox it is).
 * A recipient opens compose once, whichever list shows.
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

  const composed = useRef(false);
  useEffect(() => {
    if (!link.recipient || composed.current) return;
    composed.current = true;
    useCompose.getState().openCompose({ mode: COMPOSE_MODE.NEW, to: [link.recipient] });
  }, [link.recipient]);

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
