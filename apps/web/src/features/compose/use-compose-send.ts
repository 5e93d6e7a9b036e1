import { useState, type RefObject } from 'react';
import {
  COMPOSE_MODE,
  ENCRYPTED_PAYLOAD_LIMIT_BYTES,
  formatFileSize,
  type SendResponse,
} from '@mailroom/protocol';
import type { Translate } from '../../i18n';
import { useTranslation } from '../../i18n';
import { useNotices } from '../../ui/notices-store';
import { composeRequest, sendProblem, type ComposeForm as FormValues } from './compose-request';
import { cancelScheduledSend, fetchAttachmentFile, sendMessage } from './queries';
import type { ComposeSnapshot } from './compose-init';
import { useCompose } from './compose-store';
import { formatSendTime } from './send-later';
import { scheduledNoticeTag } from './live';
import { sendErrorText } from './send-errors';
import { EncryptedTooLargeError, encryptComposeRequest } from './encrypt-request';
import { encryptionPasswordValid } from './encrypt-switch';
import type { ComposeAttachments } from './use-compose-attachments';
import type { useDraftSaver } from './use-draft-saver';

/**
 * Sending (SPEC §4): the checks a send must pass (recipients, uploads, the encryption password, attachments an
 * encrypted message can read), then the request, encrypted in the browser when asked, after the draft settles.
 */
export function useComposeSend({
  formRef,
  files,
  drafts,
  sendingRef,
  remindDays,
  undoSeconds,
  snapshot,
  onSent,
}: {
  formRef: RefObject<FormValues>;
  files: Pick<ComposeAttachments, 'attachments' | 'uploading' | 'encryptionRef'>;
  drafts: ReturnType<typeof useDraftSaver>;
  /** Set while a send is on its way (the autosave reads it). */
  sendingRef: RefObject<boolean>;
  /** "Remind me if no reply in N days"; 0: no reminder. */
  remindDays: number;
  /** The member's undo_send_seconds (the countdown's length should the server's time read oddly here). */
  undoSeconds: number;
  /** The window as it is now, for Undo to open it again. */
  snapshot(): ComposeSnapshot;
  /** Sent: close the window and refresh the lists. */
  onSent(): void;
}) {
  const { t, i18n } = useTranslation();
  const [sending, setSending] = useState(false);

  /** Sends now (held for Undo as the settings say), or at `sendAt` (ISO 8601 with the browser's offset). */
  async function send(sendAt?: string) {
    const problem = sendProblem(formRef.current.recipients);
    if (problem) {
      useNotices.getState().push('error', sendErrorText(problem, t));
      return;
    }
    if (files.uploading) {
      useNotices.getState().push('error', t('compose.waitForUploads'));
      return;
    }
    const secret = files.encryptionRef.current;
    if (!encryptionPasswordValid(secret)) {
      useNotices.getState().push('error', t('decrypt.passwordLength', { min: 3, max: 20 }));
      return;
    }
    // An encrypted message takes the attachments' bytes from the browser (the files chosen, or read back from the
    // message they were copied from); a plain one sends uploads only.
    const items = files.attachments.items.filter((item) => item.status === 'done');
    if (items.some((item) => (secret.on ? !item.file && !item.readBack : item.id === undefined))) {
      useNotices.getState().push('error', t('decrypt.reattach'));
      return;
    }
    setSending(true);
    sendingRef.current = true;
    const kept = snapshot();
    try {
      const uid = await drafts.settledUid();
      const plain = {
        ...composeRequest({ ...formRef.current, draftUid: uid }, false),
        ...(sendAt ? { send_at: sendAt } : {}),
        ...(remindDays > 0 ? { remind_after_days: remindDays } : {}),
      };
      const response = await sendMessage(
        secret.on
          ? await encryptComposeRequest(
              plain,
              secret.password,
              await Promise.all(
                items.map((item) => item.file ?? fetchAttachmentFile(item.readBack!, item.name)),
              ),
            )
          : plain,
      );
      onSent();
      reportSent(response, { t, locale: i18n.language, undoSeconds, snapshot: kept });
    } catch (error) {
      useNotices
        .getState()
        .push(
          'error',
          error instanceof EncryptedTooLargeError
            ? t('decrypt.tooLarge', { size: formatFileSize(ENCRYPTED_PAYLOAD_LIMIT_BYTES, i18n.language) })
            : sendErrorText(error, t),
        );
    } finally {
      setSending(false);
      sendingRef.current = false;
    }
  }

  return { sending, send };
}

/**
 * The success box of a send: "Sending… Undo" with the seconds left while the server holds it (Undo cancels it and
 * opens the window again as it was), "Scheduled for …" for a send later, else "Message sent".
 */
export function reportSent(
  response: SendResponse,
  {
    t,
    locale,
    undoSeconds,
    snapshot,
  }: { t: Translate; locale: string; undoSeconds: number; snapshot: ComposeSnapshot },
): void {
  const notices = useNotices.getState();
  const scheduled = response.scheduled;
  if (scheduled?.purpose === 'later') {
    notices.push('success', t('compose.scheduledFor', { date: formatSendTime(scheduled.send_at, locale) }));
    return;
  }
  const waiting = response.queued > 0 && !response.relay_configured;
  const sentText = waiting ? `${t('compose.msg_sent')} ${t('compose.queuedNoRelay')}` : t('compose.msg_sent');
  if (!scheduled) {
    notices.push('success', sentText);
    return;
  }
  // The server's deadline, unless this page's clock reads it oddly (then the member's setting from now).
  const left = Date.parse(scheduled.send_at) - Date.now();
  const until = Date.now() + (left > 0 && left <= (undoSeconds + 2) * 1000 ? left : undoSeconds * 1000);
  notices.push('success', '', {
    tag: scheduledNoticeTag(scheduled.id),
    countdown: {
      until,
      title: t('compose.sendingTitle'),
      label: (seconds) => t('compose.sendingCountdown', { count: seconds }),
      doneText: t('compose.msg_sent'),
    },
    undo: () => undoSend(scheduled.id, snapshot, t),
  });
}

/** Undo: the held send is cancelled and its window opens again, on the draft it became; too late says so. */
async function undoSend(id: number, snapshot: ComposeSnapshot, t: Translate): Promise<void> {
  try {
    const { draft } = await cancelScheduledSend(id);
    useCompose
      .getState()
      .openCompose({ mode: COMPOSE_MODE.NEW, restore: snapshot, ...(draft ? { draft } : {}) });
  } catch (error) {
    useNotices.getState().push('error', sendErrorText(error, t));
  }
}
