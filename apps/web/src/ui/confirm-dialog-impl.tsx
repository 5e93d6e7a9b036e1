import { useState } from 'react';
import type { ConfirmDialogProps } from './confirm-dialog';
import { Dialog } from 'radix-ui';
import { useTranslation } from '../i18n';
import { Button } from './button';
import { dialogKeepsNotices } from './notices-store';
import styles from './dialog.module.css';

/** The Radix half of ConfirmDialog, loaded when a confirmation is first asked for. */
export default function ConfirmDialogImpl({
  open,
  onOpenChange,
  title,
  text,
  confirmLabel,
  danger,
  acknowledgeOnly,
  onConfirm,
  onError,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch (error) {
      onError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          role="alertdialog"
          aria-busy={busy}
          {...dialogKeepsNotices}
        >
          <div className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
          </div>
          <Dialog.Description className={styles.text}>{text}</Dialog.Description>
          <div className={styles.actions}>
            {acknowledgeOnly ? null : (
              <Dialog.Close asChild>
                <Button disabled={busy}>{t('common.cancel')}</Button>
              </Dialog.Close>
            )}
            <Button variant={danger ? 'danger' : 'primary'} disabled={busy} onClick={() => void confirm()}>
              {busy && <span className={styles.spinner} aria-hidden />}
              {busy ? <span className="visually-hidden">{t('common.processing')}</span> : null}
              {confirmLabel ?? t('common.yes')}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
