import { useState, type RefObject } from 'react';
import { ENCRYPTED_PAYLOAD_LIMIT_BYTES, formatFileSize } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { useNotices } from '../../ui/notices-store';
import { composeRequest, sendProblem, type ComposeForm as FormValues } from './compose-request';
import { fetchAttachmentFile, sendMessage } from './queries';
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
  onSent,
}: {
  formRef: RefObject<FormValues>;
  files: Pick<ComposeAttachments, 'attachments' | 'uploading' | 'encryptionRef'>;
  drafts: ReturnType<typeof useDraftSaver>;
  /** Set while a send is on its way (the autosave reads it). */
  sendingRef: RefObject<boolean>;
  /** Sent: close the window and refresh the lists. */
  onSent(): void;
}) {
  const { t, i18n } = useTranslation();
  const [sending, setSending] = useState(false);

  async function send() {
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
    try {
      const uid = await drafts.settledUid();
      const plain = composeRequest({ ...formRef.current, draftUid: uid }, false);
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
      const waiting = response.queued > 0 && !response.relay_configured;
      useNotices
        .getState()
        .push(
          'success',
          waiting ? `${t('compose.msg_sent')} ${t('compose.queuedNoRelay')}` : t('compose.msg_sent'),
        );
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
