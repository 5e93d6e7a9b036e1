import { useEffect } from 'react';
import { Dialog } from 'radix-ui';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useTranslation } from '../i18n';
import clsx from 'clsx';
import { BANNER_MS } from '@mailroom/protocol';
import { Button } from './button';
import { useNotices } from './notices-store';
import styles from './dialog.module.css';

/** The Radix half of NoticeDialog, loaded with the first notice. */
export default function NoticeDialogImpl() {
  const { t } = useTranslation();
  const notice = useNotices((state) => state.queue[0]);
  const dismiss = useNotices((state) => state.dismiss);

  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(() => dismiss(notice.id), BANNER_MS);
    return () => window.clearTimeout(timer);
  }, [notice, dismiss]);

  if (!notice) return null;
  const isError = notice.kind === 'error';
  const Icon = isError ? CircleAlert : CircleCheck;
  return (
    <Dialog.Root open onOpenChange={(open) => !open && dismiss(notice.id)}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          role={isError ? 'alertdialog' : 'dialog'}
          data-testid={isError ? 'error-dialog' : 'success-dialog'}
        >
          <div className={styles.header}>
            <Icon
              className={clsx(styles.icon, isError ? styles.errorIcon : styles.successIcon)}
              aria-hidden
            />
            <Dialog.Title className={styles.title}>
              {isError ? t('notice.errorTitle') : t('notice.successTitle')}
            </Dialog.Title>
          </div>
          <Dialog.Description className={styles.text}>{notice.text}</Dialog.Description>
          <div className={styles.actions}>
            <Dialog.Close asChild>
              <Button variant="primary">{t('common.close')}</Button>
            </Dialog.Close>
          </div>
          <div className={styles.progress} role="presentation" title={t('notice.autoClose')}>
            <div
              key={notice.id}
              className={clsx(styles.progressBar, isError ? styles.errorBar : styles.successBar)}
              style={{ animationDuration: `${BANNER_MS}ms` }}
            />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
