import { useContext, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import { useNotices } from '../../ui/notices-store';
import { useAccount } from '../account';
import type { ComposeInitial, ComposeSnapshot } from './compose-init';
import type { ComposeForm as FormValues } from './compose-request';
import { useCompose } from './compose-store';
import { ComposeSavedContext } from './saved-context';
import { sendErrorText } from './send-errors';
import { useComposeAttachments } from './use-compose-attachments';
import { useComposeDraft } from './use-compose-draft';
import { useComposeFields } from './use-compose-fields';
import { useComposeSend } from './use-compose-send';

/**
 * The compose window's state and what it does (SPEC §4), composed of its concerns: the fields (useComposeFields),
 * attachments and encryption (useComposeAttachments), the draft (useComposeDraft) and sending (useComposeSend); this
 * hook holds the window itself (collapsed, full screen, closing). ComposeForm draws what this returns.
 */
export function useComposeForm(initial: ComposeInitial) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // Lists and counters change after a send or a draft save; live events would say so too, a moment later.
  const refreshMail = useContext(ComposeSavedContext);
  const closeCompose = useCompose((state) => state.closeCompose);
  const [collapsed, setCollapsed] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const [remindDays, setRemindDays] = useState(0);
  const undoSeconds = useAccount()?.settings.undo_send_seconds ?? 0;
  const finished = useRef(false);
  const sendingRef = useRef(false);
  const fields = useComposeFields(initial);
  const files = useComposeAttachments(initial, t);

  const form: FormValues = {
    from: { email: fields.from?.email ?? '', name: fields.from?.name ?? '' },
    recipients: fields.recipients,
    subject: fields.subject,
    body: fields.body,
    format: fields.format,
    attachments: files.attachments.items.flatMap((item) =>
      item.status === 'done' && item.id ? [item.id] : [],
    ),
    draftUid: initial.draftUid,
    source: initial.source,
  };
  const formRef = useRef(form);
  formRef.current = form;

  const draft = useComposeDraft({
    initial,
    startBody: fields.startBody,
    formRef,
    files,
    collapsed,
    paused: () => finished.current || sendingRef.current,
    onSaved: () => refreshMail(client),
  });

  /** The window is done (sent, closed, discarded): no draft is saved for it any more. */
  function finish() {
    finished.current = true;
    closeCompose();
  }

  /** The window as it is now (what Undo send brings back). */
  const snapshot = (): ComposeSnapshot => ({
    mode: initial.mode,
    fromChoices: initial.fromChoices,
    fromId: fields.fromId,
    recipients: fields.recipients,
    subject: fields.subject,
    body: fields.body,
    format: fields.format,
    withSignature: initial.withSignature,
    source: initial.source,
    restored: {
      encryption: files.encryptionRef.current,
      files: files.encryptionRef.current.on
        ? files.attachments.items.flatMap((item) => (item.file ? [item.file] : []))
        : [],
    },
  });

  const { sending, send } = useComposeSend({
    formRef,
    files,
    drafts: draft.drafts,
    sendingRef,
    remindDays,
    undoSeconds,
    snapshot,
    onSent: () => {
      finish();
      refreshMail(client);
    },
  });

  // Replaced by another compose window (a reply opened meanwhile): keep what was written as a draft.
  useEffect(
    () => () => {
      if (!finished.current) void draft.settle().catch(() => {});
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on unmount only
    [],
  );

  async function close() {
    // Not saved as a draft (its text must not reach the server): closing would lose it silently.
    if (files.encryptionRef.current.on && !draft.asOpened()) {
      setConfirmDiscard(true);
      return;
    }
    try {
      await draft.settle();
    } catch (error) {
      // The text stays on screen rather than being lost with the window.
      useNotices.getState().push('error', sendErrorText(error, t));
      return;
    }
    finish();
  }

  return {
    initial,
    fromId: fields.fromId,
    from: fields.from,
    recipients: fields.recipients,
    subject: fields.subject,
    format: fields.format,
    body: fields.body,
    revision: fields.revision,
    collapsed,
    fullscreen,
    sending,
    draftState: draft.draftState,
    dragging: files.dragging,
    encryption: files.encryption,
    confirmDiscard,
    remindDays,
    setRemindDays,
    attachments: files.attachments,
    title: fields.subject.trim() || t(`compose.title${initial.mode}`),
    setCollapsed,
    setFullscreen,
    setDragging: files.setDragging,
    setConfirmDiscard,
    setSubject: fields.setSubject,
    setBody: fields.setBody,
    setEncryption: files.setEncryption,
    setField: fields.setField,
    changeFrom: fields.changeFrom,
    changeFormat: fields.changeFormat,
    addFiles: files.addFiles,
    onDrop: files.onDrop,
    close,
    send,
    /** The discard confirmed: an encrypted message is closed without a draft. */
    discard: finish,
  };
}

export type ComposeFormState = ReturnType<typeof useComposeForm>;
