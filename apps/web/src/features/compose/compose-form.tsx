import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from '../../i18n';
import { useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { Paperclip, Send, Type } from 'lucide-react';
import { AUTOSAVE_MS, recipientFieldNames, type RecipientFieldName } from '@mailroom/protocol';
import { Button } from '../../ui/button';
import { Select } from '../../ui/select';
import { useNotices } from '../../ui/notices-store';
import type { RecipientTag } from './addresses';
import { AttachmentList, useAttachments } from './attachments';
import { convertBody, signatureBlock, swapSignature, type BodyFormat } from './compose-body';
import type { ComposeInitial } from './compose-init';
import { ComposeHeader, RecipientInputs } from './compose-parts';
import {
  composeRequest,
  sendProblem,
  type ComposeForm as FormValues,
  type RecipientFields,
} from './compose-request';
import { useCompose } from './compose-store';
import { htmlToPlain } from './body-text';
import { copyAttachments, refreshMail, sendMessage } from './queries';
import { normalizeHtml, RichEditor } from './rich-editor';
import { sendErrorText } from './send-errors';
import { useDraftSaver } from './use-draft-saver';
import { EncryptSwitch, encryptionOff, encryptionPasswordValid, type EncryptionChoice } from '../decrypt';
import { EncryptedTooLargeError, encryptComposeRequest } from '../decrypt';
import { raiseError } from '../../api/error-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import styles from './compose.module.css';

function bodyText(body: string, format: BodyFormat): string {
  return (format === 'html' ? htmlToPlain(body) : body).trim();
}

export function ComposeForm({ initial }: { initial: ComposeInitial }) {
  const { t } = useTranslation();
  const client = useQueryClient();
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
  const [touched, setTouched] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [sending, setSending] = useState(false);
  const sendingRef = useRef(false);
  const [draftState, setDraftState] = useState<'idle' | 'saved' | 'failed'>('idle');
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  const touch = useCallback(() => setTouched(true), []);
  const attachments = useAttachments(touch);
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

  // SPEC §4: closing with a recipient, subject, text or attachment saves a draft; an empty form is discarded.
  // A window the user never touched (a reply opened and closed again) counts as empty too.
  const filled = () => {
    const current = formRef.current;
    return (
      recipientFieldNames.some((field) => current.recipients[field].length > 0) ||
      current.subject.trim() !== '' ||
      current.attachments.length > 0 ||
      bodyText(current.body, current.format) !== bodyText(startBody, initial.format)
    );
  };
  const touchedRef = useRef(touched);
  touchedRef.current = touched;
  // A message to be encrypted is never saved as a draft: the server must not get its text.
  const needsSave = () =>
    touchedRef.current && filled() && !drafts.isUnchanged() && !encryptionRef.current.on;

  // Forwarded and reopened drafts bring their attachments along without uploading them again.
  useEffect(() => {
    if (!initial.copyFrom) return;
    copyAttachments(initial.copyFrom).then(attachments.addUploaded, (error: unknown) =>
      useNotices.getState().push('error', sendErrorText(error, t)),
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
      if (!finished.current && needsSave()) void drafts.save().catch(() => {});
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on unmount only
    [],
  );

  async function close() {
    // Not saved as a draft (its text must not reach the server): closing would lose it silently.
    if (encryptionRef.current.on && touchedRef.current && filled()) {
      setConfirmDiscard(true);
      return;
    }
    if (needsSave()) {
      try {
        await drafts.save();
      } catch (error) {
        // The text stays on screen rather than being lost with the window.
        useNotices.getState().push('error', sendErrorText(error, t));
        return;
      }
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
    // Uploaded files are on the server in the clear; files kept for encryption were never uploaded.
    if (attachments.items.some((item) => (secret.on ? item.id !== undefined : item.file !== undefined))) {
      useNotices.getState().push('error', t('decrypt.reattach'));
      return;
    }
    setSending(true);
    sendingRef.current = true;
    try {
      const uid = await drafts.settledUid();
      const plain = composeRequest({ ...formRef.current, draftUid: uid }, false);
      const local = attachments.items.flatMap((item) => (item.file ? [item.file] : []));
      const response = await sendMessage(
        secret.on ? await encryptComposeRequest(plain, secret.password, local) : plain,
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
            ? t('decrypt.tooLarge', { size: '20 MB' })
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
    touch();
  }

  function changeFormat() {
    const next = format === 'html' ? 'plain' : 'html';
    setBody(convertBody(body, next));
    setFormat(next);
    setRevision((value) => value + 1);
    touch();
  }

  function setField(field: RecipientFieldName, tags: RecipientTag[]) {
    setRecipients((current) => ({ ...current, [field]: tags }));
    touch();
  }

  function onDrop(event: DragEvent) {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    setDragging(false);
    attachments.addFiles(Array.from(event.dataTransfer.files), { local: encryption.on });
  }

  const title = subject.trim() || t(`compose.title${initial.mode}`);
  return (
    <section
      className={clsx(
        styles.window,
        collapsed && styles.collapsed,
        fullscreen && !collapsed && styles.fullscreen,
      )}
      role="dialog"
      aria-modal={false}
      aria-label={title}
      data-testid="compose-window"
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <ComposeHeader
        title={title}
        collapsed={collapsed}
        fullscreen={fullscreen}
        onCollapsed={setCollapsed}
        onFullscreen={setFullscreen}
        onClose={() => void close()}
      />
      <form
        className={styles.form}
        hidden={collapsed}
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <div className={styles.fields}>
          <div className={styles.fromRow}>
            <span className={styles.fieldLabel}>{t('compose.from')}</span>
            {initial.fromChoices.length > 1 ? (
              <Select
                label={t('compose.from')}
                value={fromId}
                options={initial.fromChoices.map((option) => ({
                  value: option.id,
                  label: option.name ? `${option.name} <${option.email}>` : option.email,
                }))}
                onChange={changeFrom}
              />
            ) : (
              <span className={styles.fromText}>{from?.email}</span>
            )}
          </div>
          <RecipientInputs
            recipients={recipients}
            autoFocus={initial.recipients.to.length === 0 && !initial.draftUid}
            onChange={setField}
          />
          <input
            className={styles.subject}
            aria-label={t('compose.subject')}
            placeholder={t('compose.subject')}
            value={subject}
            maxLength={998}
            onChange={(event) => {
              setSubject(event.target.value);
              touch();
            }}
          />
        </div>
        <div className={styles.bodyArea}>
          {format === 'html' ? (
            <RichEditor
              html={body}
              revision={revision}
              label={t('compose.body')}
              autoFocus={initial.recipients.to.length > 0 && !initial.draftUid}
              onChange={(html) => {
                setBody(html);
                touch();
              }}
            />
          ) : (
            <textarea
              className={styles.plain}
              aria-label={t('compose.body')}
              value={body}
              onChange={(event) => {
                setBody(event.target.value);
                touch();
              }}
            />
          )}
          <AttachmentList items={attachments.items} onRemove={attachments.remove} />
          {dragging ? <div className={styles.dropZone}>{t('compose.dropFiles')}</div> : null}
        </div>
        <ConfirmDialog
          open={confirmDiscard}
          onOpenChange={setConfirmDiscard}
          title={t('decrypt.discardTitle')}
          text={t('decrypt.discardText')}
          confirmLabel={t('decrypt.discard')}
          danger
          onError={raiseError}
          onConfirm={() => {
            finished.current = true;
            closeCompose();
          }}
        />
        <EncryptSwitch
          value={encryption}
          onChange={(next) => {
            setEncryption(next);
            touch();
          }}
        />
        <footer className={styles.footer}>
          <Button type="submit" variant="primary" disabled={sending} aria-busy={sending}>
            <Send aria-hidden />
            {sending ? t('compose.sending') : t('compose.send')}
          </Button>
          <Button
            variant="ghost"
            iconOnly
            aria-label={t('compose.attach')}
            title={t('compose.attach')}
            onClick={() => fileInput.current?.click()}
          >
            <Paperclip aria-hidden />
          </Button>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            data-testid="compose-file-input"
            onChange={(event) => {
              attachments.addFiles(Array.from(event.target.files ?? []), { local: encryption.on });
              event.target.value = '';
            }}
          />
          <Button
            variant="ghost"
            iconOnly
            aria-pressed={format === 'plain'}
            aria-label={t('compose.plainText')}
            title={t('compose.plainText')}
            onClick={changeFormat}
          >
            <Type aria-hidden />
          </Button>
          <span className={styles.status} role="status">
            {draftState === 'saved' ? t('compose.draftSaved') : null}
            {draftState === 'failed' ? t('compose.draftFailed') : null}
          </span>
        </footer>
      </form>
    </section>
  );
}
