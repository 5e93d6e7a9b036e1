import { useCallback, useContext, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from '../../i18n';
import { useQueryClient } from '@tanstack/react-query';
import {
  AUTOSAVE_MS,
  ENCRYPTED_PAYLOAD_LIMIT_BYTES,
  formatFileSize,
  recipientFieldNames,
  type RecipientFieldName,
} from '@mailroom/protocol';
import { useNotices } from '../../ui/notices-store';
import type { RecipientTag } from './addresses';
import { useAttachments } from './attachments';
import { convertBody, signatureBlock, swapSignature, type BodyFormat } from './compose-body';
import type { ComposeInitial } from './compose-init';
import {
  composeRequest,
  sendProblem,
  type ComposeForm as FormValues,
  type RecipientFields,
} from './compose-request';
import { useCompose } from './compose-store';
import { htmlToPlain } from './body-text';
import { copyAttachments, fetchAttachmentFile, sendMessage, storedAttachmentUrl } from './queries';
import { ComposeSavedContext } from './saved-context';
import { normalizeHtml } from './rich-editor';
import { sendErrorText } from './send-errors';
import { useDraftSaver } from './use-draft-saver';
import { EncryptedTooLargeError, encryptComposeRequest } from './encrypt-request';
import { encryptionOff, encryptionPasswordValid, type EncryptionChoice } from './encrypt-switch';

function bodyText(body: string, format: BodyFormat): string {
  return (format === 'html' ? htmlToPlain(body) : body).trim();
}

/** The same addresses in the same order (a tag typed and removed again leaves the field as it was). */
function sameTags(current: readonly RecipientTag[], opening: readonly RecipientTag[]): boolean {
  return (
    current.length === opening.length &&
    current.every(
      (tag, index) =>
        tag.email.toLowerCase() === opening[index]!.email.toLowerCase() &&
        tag.valid === opening[index]!.valid,
    )
  );
}

/**
 * The compose window's state and what it does (SPEC §4): the fields, the format and signature swaps, attachments,
 * encryption, drafts (saved on close, every 30 s, and when replaced by another window; never for an encrypted
 * message) and sending. ComposeForm draws what this returns.
 */
export function useComposeForm(initial: ComposeInitial) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  // Lists and counters change after a send or a draft save; live events would say so too, a moment later.
  const refreshMail = useContext(ComposeSavedContext);
  const closeCompose = useCompose((state) => state.closeCompose);
  const [fromId, setFromId] = useState(initial.fromId);
  const [recipients, setRecipients] = useState<RecipientFields>(initial.recipients);
  const [subject, setSubject] = useState(initial.subject);
  const [format, setFormat] = useState<BodyFormat>(initial.format);
  const startBody = useMemo(
    () => (initial.format === 'html' ? normalizeHtml(initial.body) : initial.body),
    [initial],
  );
  const [body, setBody] = useState(startBody);
  const [revision, setRevision] = useState(0);
  const [collapsed, setCollapsed] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  const [draftState, setDraftState] = useState<'idle' | 'saved' | 'failed'>('idle');
  const [dragging, setDragging] = useState(false);
  const finished = useRef(false);
  const attachments = useAttachments();
  const attachmentsRef = useRef(attachments.items);
  attachmentsRef.current = attachments.items;
  // What the window opened with: a forward's or a reopened draft's attachments arrive a moment later.
  const openingAttachments = useRef(new Set<number>());
  const [encryption, setEncryption] = useState<EncryptionChoice>(encryptionOff);
  const encryptionRef = useRef(encryption);
  encryptionRef.current = encryption;
  const [confirmDiscard, setConfirmDiscard] = useState(false);
  const from = initial.fromChoices.find((option) => option.id === fromId) ?? initial.fromChoices[0];
  const uploading = attachments.items.some((item) => item.status === 'uploading');

  const form: FormValues = {
    from: { email: from?.email ?? '', name: from?.name ?? '' },
    recipients,
    subject,
    body,
    format,
    attachments: attachments.items.flatMap((item) => (item.status === 'done' && item.id ? [item.id] : [])),
    draftUid: initial.draftUid,
    source: initial.source,
  };
  const formRef = useRef(form);
  formRef.current = form;
  const getForm = useCallback(() => formRef.current, []);
  const drafts = useDraftSaver(getForm, () => {
    setDraftState('saved');
    refreshMail(client);
  });

  // SPEC §4: closing with a recipient, subject, text or attachment saves a draft; an empty form is discarded. More
  // generally a window whose recipients, subject, text and attachments are as they opened is discarded: a reply
  // opened and closed again leaves no 'Re: …' draft behind.
  const asOpened = () => {
    const current = formRef.current;
    const items = attachmentsRef.current;
    const opening = openingAttachments.current;
    return (
      recipientFieldNames.every((field) => sameTags(current.recipients[field], initial.recipients[field])) &&
      current.subject.trim() === initial.subject.trim() &&
      bodyText(current.body, current.format) === bodyText(startBody, initial.format) &&
      items.length === opening.size &&
      items.every((item) => item.id !== undefined && opening.has(item.id))
    );
  };
  // A message to be encrypted is never saved as a draft: the server must not get its text. A reopened draft left
  // as it opened is saved only if this window saved something else in between.
  const needsSave = () => {
    if (encryptionRef.current.on || drafts.isUnchanged()) return false;
    return !asOpened() || (initial.draftUid !== null && drafts.hasSaved());
  };
  /** Closing or replaced: keep what was written as a draft, or drop the draft this window autosaved. */
  async function settleDraft(): Promise<void> {
    if (needsSave()) await drafts.save();
    else if (initial.draftUid === null && drafts.hasSaved() && asOpened()) {
      await drafts.discard();
      refreshMail(client);
    }
  }

  // Forwarded and reopened drafts bring their attachments along without uploading them again.
  useEffect(() => {
    const from = initial.copyFrom;
    if (!from) return;
    copyAttachments(from).then(
      (copied) => {
        for (const attachment of copied) openingAttachments.current.add(attachment.id);
        // The copies come in the order of the ids asked for: each can be read back from the message, to be
        // encrypted in the browser if encryption is switched on.
        attachments.addUploaded(
          copied,
          from.ids.map((id) => storedAttachmentUrl(from, id)),
        );
      },
      (error: unknown) => useNotices.getState().push('error', sendErrorText(error, t)),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per window
  }, []);

  // Autosave every 30 s unless collapsed (SPEC §4).
  useEffect(() => {
    if (collapsed) return;
    const timer = window.setInterval(() => {
      // Not while a send is on its way: the send deletes the draft, a save now would leave a new one.
      if (!needsSave() || finished.current || sendingRef.current) return;
      drafts.save().catch(() => setDraftState('failed'));
    }, AUTOSAVE_MS);
    return () => window.clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- needsSave reads refs
  }, [collapsed, drafts]);

  // Replaced by another compose window (a reply opened meanwhile): keep what was written as a draft.
  useEffect(
    () => () => {
      if (!finished.current) void settleDraft().catch(() => {});
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on unmount only
    [],
  );

  async function close() {
    // Not saved as a draft (its text must not reach the server): closing would lose it silently.
    if (encryptionRef.current.on && !asOpened()) {
      setConfirmDiscard(true);
      return;
    }
    try {
      await settleDraft();
    } catch (error) {
      // The text stays on screen rather than being lost with the window.
      useNotices.getState().push('error', sendErrorText(error, t));
      return;
    }
    finished.current = true;
    closeCompose();
  }

  async function send() {
    const problem = sendProblem(recipients);
    if (problem) {
      useNotices.getState().push('error', sendErrorText(problem, t));
      return;
    }
    if (uploading) {
      useNotices.getState().push('error', t('compose.waitForUploads'));
      return;
    }
    const secret = encryptionRef.current;
    if (!encryptionPasswordValid(secret)) {
      useNotices.getState().push('error', t('decrypt.passwordLength', { min: 3, max: 20 }));
      return;
    }
    // An encrypted message takes the attachments' bytes from the browser (the files chosen, or read back from the
    // message they were copied from); a plain one sends uploads only.
    const items = attachments.items.filter((item) => item.status === 'done');
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
      finished.current = true;
      closeCompose();
      refreshMail(client);
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

  function changeFrom(next: string) {
    const target = initial.fromChoices.find((option) => option.id === next);
    if (initial.withSignature && from && target) {
      const block = (signature: string) => {
        const raw = signatureBlock(signature, format);
        return format === 'html' && raw ? normalizeHtml(raw) : raw;
      };
      const swapped = swapSignature(body, block(from.signature), block(target.signature));
      if (swapped !== null && swapped !== body) {
        setBody(swapped);
        setRevision((value) => value + 1);
      }
    }
    setFromId(next);
  }

  function changeFormat() {
    const next = format === 'html' ? 'plain' : 'html';
    setBody(convertBody(body, next));
    setFormat(next);
    setRevision((value) => value + 1);
  }

  function setField(field: RecipientFieldName, tags: RecipientTag[]) {
    setRecipients((current) => ({ ...current, [field]: tags }));
  }

  function onDrop(event: DragEvent) {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(false);
    addFiles(Array.from(event.dataTransfer.files));
  }

  function setSubjectText(next: string) {
    setSubject(next);
  }

  function setBodyText(next: string) {
    setBody(next);
  }

  function changeEncryption(next: EncryptionChoice) {
    // Files added while encrypting stayed in the browser; a plain message needs them uploaded.
    if (encryption.on && !next.on) attachments.uploadKept();
    setEncryption(next);
  }

  function addFiles(files: File[]) {
    attachments.addFiles(files, { local: encryption.on });
  }

  /** The discard confirmed: an encrypted message is closed without a draft. */
  function discard() {
    finished.current = true;
    closeCompose();
  }

  return {
    initial,
    fromId,
    from,
    recipients,
    subject,
    format,
    body,
    revision,
    collapsed,
    fullscreen,
    sending,
    draftState,
    dragging,
    encryption,
    confirmDiscard,
    attachments,
    title: subject.trim() || t(`compose.title${initial.mode}`),
    setCollapsed,
    setFullscreen,
    setDragging,
    setConfirmDiscard,
    setSubject: setSubjectText,
    setBody: setBodyText,
    setEncryption: changeEncryption,
    setField,
    changeFrom,
    changeFormat,
    addFiles,
    onDrop,
    close,
    send,
    discard,
  };
}

export type ComposeFormState = ReturnType<typeof useComposeForm>;
