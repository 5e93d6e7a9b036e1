import { useQuery, type QueryClient } from '@tanstack/react-query';
import type {
  ComposeRequest,
  CopyAttachmentsRequest,
  CopyAttachmentsResponse,
  DraftResponse,
  Mail,
  SendResponse,
  UploadedAttachment,
} from '@mailroom/protocol';
import { api } from '../../api/client';

export function sendMessage(body: ComposeRequest): Promise<SendResponse> {
  return api.post<SendResponse>('/api/v1/messages/send', body);
}

export function saveDraft(body: ComposeRequest): Promise<DraftResponse> {
  return api.post<DraftResponse>('/api/v1/messages/draft', body);
}

/** A forwarded message's or a reopened draft's attachments, as compose attachments (no second upload). */
export async function copyAttachments(request: CopyAttachmentsRequest): Promise<UploadedAttachment[]> {
  const response = await api.post<CopyAttachmentsResponse>('/api/v1/attachments/copy', request);
  return response.attachments;
}

/** A draft to continue, with its images: compose shows what will be sent, not the reader's blocked view. */
export function useDraftMessage(draft: { folder_id: number; uid: number } | undefined) {
  return useQuery({
    queryKey: ['compose', 'draft', draft?.folder_id ?? 0, draft?.uid ?? 0],
    queryFn: ({ signal }) =>
      api.get<{ message: Mail }>(`/api/v1/messages/${draft!.folder_id}/${draft!.uid}`, {
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

/** Lists and counters change after a send or a draft save; live events would say so too, a moment later. */
export function refreshMail(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: ['messages'] });
  void client.invalidateQueries({ queryKey: ['folders'] });
}
