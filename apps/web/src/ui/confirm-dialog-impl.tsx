import { useState } from 'react';
import type { ConfirmDialogProps } from './confirm-dialog';
import { useTranslation } from '../i18n';
import { Button } from './button';
import { Dialog, DialogClose, DialogSpinner } from './dialog';

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
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      role="alertdialog"
      title={title}
      description={text}
      actions={
        <>
          {acknowledgeOnly ? null : <DialogClose disabled={busy}>{t('common.cancel')}</DialogClose>}
          <Button variant={danger ? 'danger' : 'primary'} disabled={busy} onClick={() => void confirm()}>
            {busy && <DialogSpinner />}
            {busy ? <span className="visually-hidden">{t('common.processing')}</span> : null}
            {confirmLabel ?? t('common.yes')}
          </Button>
        </>
      }
    />
  );
}
