import { useQuery } from '@tanstack/react-query';
import type {
  ComposeRequest,
  CopyAttachmentsRequest,
  DraftResponse,
  SendResponse,
  UploadedAttachment,
} from '@mailroom/protocol';
import { call, fetchBlob, routes, routeUrl } from '../../api/client';

export function sendMessage(body: ComposeRequest): Promise<SendResponse> {
  return call(routes.sendMessage, { body });
}

/** What waits in Scheduled (compose/live.ts spells this key again). */
export const scheduledSendsKey = ['scheduled-sends'] as const;

export function useScheduledSends(enabled = true) {
  return useQuery({
    queryKey: scheduledSendsKey,
    queryFn: ({ signal }) => call(routes.scheduledSends, { signal }),
    select: (response) => response.scheduled,
    enabled,
  });
}

/** Send now a message waiting in Scheduled. */
export async function sendScheduledNow(id: number): Promise<void> {
  await call(routes.sendScheduledNow, { params: { id } });
}

/** Undo, Edit or Cancel of a send waiting in Scheduled: its copy goes back to Drafts (none for an encrypted one). */
export function cancelScheduledSend(id: number) {
  return call(routes.cancelScheduledSend, { params: { id } });
}

export function saveDraft(body: ComposeRequest): Promise<DraftResponse> {
  return call(routes.saveDraft, { body });
}

/** A draft this window saved and no longer needs: removed for good, not moved to Trash. */
export async function discardDraft(uid: number): Promise<void> {
  await call(routes.discardDraft, { params: { uid } });
}

/** Where an attachment of a stored message is read back (a forward's, to encrypt it in the browser). */
export function storedAttachmentUrl(
  message: { folder_id: number; uid: number },
  attachmentId: number,
): string {
  return routeUrl(routes.attachment, {
    params: { id: attachmentId },
    query: { message_uid: message.uid, folder_id: message.folder_id },
  });
}

/** The bytes of an attachment read back from the server, as a file of its name. */
export async function fetchAttachmentFile(url: string, name: string): Promise<File> {
  const blob = await fetchBlob(url);
  return new File([blob], name, { type: blob.type });
}

/** A forwarded message's or a reopened draft's attachments, as compose attachments (no second upload). */
export async function copyAttachments(request: CopyAttachmentsRequest): Promise<UploadedAttachment[]> {
  const response = await call(routes.copyAttachments, { body: request });
  return response.attachments;
}

/** A draft to continue, with its images: compose shows what will be sent, not the reader's blocked view. */
export function useDraftMessage(draft: { folder_id: number; uid: number } | undefined) {
  return useQuery({
    queryKey: ['compose', 'draft', draft?.folder_id ?? 0, draft?.uid ?? 0],
    queryFn: ({ signal }) =>
      call(routes.message, {
        params: { folder_id: draft!.folder_id, uid: draft!.uid },
        query: { show_images: 'true' },
        signal,
      }),
    select: (response) => response.message,
    enabled: draft !== undefined,
    retry: false,
    // A draft is read once per opening: a later opening must see the latest save.
    gcTime: 0,
  });
}
