import { useRef } from 'react';
import { useTranslation } from '../../i18n';
import clsx from 'clsx';
import { Paperclip, Send, Type } from 'lucide-react';
import { Button } from '../../ui/button';
import { IconButton } from '../../ui/icon-button';
import { Select } from '../../ui/select';
import { AttachmentList } from './attachments';
import type { ComposeInitial } from './compose-init';
import { ComposeHeader, RecipientInputs } from './compose-parts';
import { RichEditor } from './rich-editor';
import { EncryptSwitch } from './encrypt-switch';
import { RemindSelect, SendLaterMenu } from './send-later-menu';
import { raiseError } from '../../api/error-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useComposeForm, type ComposeFormState } from './use-compose-form';
import styles from './compose.module.css';

/** The compose window (SPEC §2): header, fields, body, attachments, encryption and the footer's actions. */
export function ComposeForm({ initial }: { initial: ComposeInitial }) {
  const { t } = useTranslation();
  const compose = useComposeForm(initial);
  const { collapsed, fullscreen, title } = compose;
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
        compose.setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) compose.setDragging(false);
      }}
      onDrop={compose.onDrop}
    >
      <ComposeHeader
        title={title}
        collapsed={collapsed}
        fullscreen={fullscreen}
        onCollapsed={compose.setCollapsed}
        onFullscreen={compose.setFullscreen}
        onClose={() => void compose.close()}
      />
      <form
        className={styles.form}
        hidden={collapsed}
        onSubmit={(event) => {
          event.preventDefault();
          void compose.send();
        }}
      >
        <ComposeFields compose={compose} />
        <ComposeBodyArea compose={compose} />
        <ConfirmDialog
          open={compose.confirmDiscard}
          onOpenChange={compose.setConfirmDiscard}
          title={t('decrypt.discardTitle')}
          text={t('decrypt.discardText')}
          confirmLabel={t('decrypt.discard')}
          danger
          onError={raiseError}
          onConfirm={compose.discard}
        />
        <EncryptSwitch value={compose.encryption} onChange={compose.setEncryption} />
        <ComposeFooter compose={compose} />
      </form>
    </section>
  );
}

/** From (a choice when there are several addresses), the recipients and the subject. */
function ComposeFields({ compose }: { compose: ComposeFormState }) {
  const { t } = useTranslation();
  const { initial, from } = compose;
  return (
    <div className={styles.fields}>
      <div className={styles.fromRow}>
        <span className={styles.fieldLabel}>{t('compose.from')}</span>
        {initial.fromChoices.length > 1 ? (
          <Select
            label={t('compose.from')}
            value={compose.fromId}
            options={initial.fromChoices.map((option) => ({
              value: option.id,
              label: option.name ? `${option.name} <${option.email}>` : option.email,
            }))}
            onChange={compose.changeFrom}
          />
        ) : (
          <span className={styles.fromText}>{from?.email}</span>
        )}
      </div>
      <RecipientInputs
        recipients={compose.recipients}
        autoFocus={initial.recipients.to.length === 0 && !initial.draftUid}
        onChange={compose.setField}
      />
      <input
        className={styles.subject}
        aria-label={t('compose.subject')}
        placeholder={t('compose.subject')}
        value={compose.subject}
        maxLength={998}
        onChange={(event) => compose.setSubject(event.target.value)}
      />
    </div>
  );
}

/** The text (rich or plain), the attachments and the drop zone while files are dragged over the window. */
function ComposeBodyArea({ compose }: { compose: ComposeFormState }) {
  const { t } = useTranslation();
  const { initial } = compose;
  return (
    <div className={styles.bodyArea}>
      {compose.format === 'html' ? (
        <RichEditor
          html={compose.body}
          revision={compose.revision}
          label={t('compose.body')}
          autoFocus={initial.recipients.to.length > 0 && !initial.draftUid}
          onChange={compose.setBody}
        />
      ) : (
        <textarea
          className={styles.plain}
          aria-label={t('compose.body')}
          value={compose.body}
          onChange={(event) => compose.setBody(event.target.value)}
        />
      )}
      <AttachmentList items={compose.attachments.items} onRemove={compose.attachments.remove} />
      {compose.dragging ? <div className={styles.dropZone}>{t('compose.dropFiles')}</div> : null}
    </div>
  );
}

/** Send, attach, plain text, and the draft's status. */
function ComposeFooter({ compose }: { compose: ComposeFormState }) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <footer className={styles.footer}>
      <Button type="submit" variant="primary" disabled={compose.sending} aria-busy={compose.sending}>
        <Send aria-hidden />
        {compose.sending ? t('compose.sending') : t('compose.send')}
      </Button>
      {/* An encrypted message goes now only: the server keeps no text it could send later. */}
      {compose.encryption.on ? null : (
        <SendLaterMenu disabled={compose.sending} onSend={(sendAt) => void compose.send(sendAt)} />
      )}
      <IconButton label={t('compose.attach')} onClick={() => fileInput.current?.click()}>
        <Paperclip aria-hidden />
      </IconButton>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        data-testid="compose-file-input"
        onChange={(event) => {
          compose.addFiles(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      <IconButton
        label={t('compose.plainText')}
        aria-pressed={compose.format === 'plain'}
        onClick={compose.changeFormat}
      >
        <Type aria-hidden />
      </IconButton>
      <RemindSelect value={compose.remindDays} onChange={compose.setRemindDays} />
      <span className={styles.status} role="status">
        {compose.draftState === 'saved' ? t('compose.draftSaved') : null}
        {compose.draftState === 'failed' ? t('compose.draftFailed') : null}
      </span>
    </footer>
  );
}
