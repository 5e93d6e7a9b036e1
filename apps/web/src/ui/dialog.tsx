import type { FormEvent, ReactNode } from 'react';
import { Dialog as Radix } from 'radix-ui';
import { useTranslation } from '../i18n';
import { X } from 'lucide-react';
import { Button, type ButtonProps } from './button';
import { IconButton } from './icon-button';
import { dialogKeepsNotices } from './notices-store';
import styles from './dialog.module.css';
import { FormError } from './form-parts';

export interface DialogProps {
  /** Open unless told; a dialog mounted only while open leaves it out. */
  open?: boolean;
  onOpenChange(open: boolean): void;
  /** While busy the dialog cannot be closed (Escape, the overlay, Cancel). */
  busy?: boolean;
  title: ReactNode;
  /** The text under the title; it becomes the dialog's description (aria-describedby). */
  description?: ReactNode;
  role?: 'dialog' | 'alertdialog';
  /** The whole dialog is this form: header, body and actions inside it; aria-busy while busy. */
  onSubmit?(event: FormEvent<HTMLFormElement>): void;
  noValidate?: boolean;
  /** Beside the title (a close button). */
  headerEnd?: ReactNode;
  /** The buttons under the body. */
  actions?: ReactNode;
  children?: ReactNode;
  /** Another frame than the small centred card (a sheet): its content, form, header and actions classes. */
  classNames?: { content?: string; form?: string; header?: string; actions?: string };
}

/** SPEC §2 dialog: overlay, title, optional description, body and actions; notices stay readable above it. */
export function Dialog({
  open = true,
  onOpenChange,
  busy = false,
  title,
  description,
  role,
  onSubmit,
  noValidate,
  headerEnd,
  actions,
  children,
  classNames = {},
}: DialogProps) {
  const inner = (
    <>
      <div className={classNames.header ?? styles.header}>
        <Radix.Title className={styles.title}>{title}</Radix.Title>
        {headerEnd}
      </div>
      {description !== undefined ? (
        <Radix.Description className={styles.text}>{description}</Radix.Description>
      ) : null}
      {children}
      {actions !== undefined ? <div className={classNames.actions ?? styles.actions}>{actions}</div> : null}
    </>
  );
  return (
    <Radix.Root open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <Radix.Portal>
        <Radix.Overlay className={styles.overlay} />
        <Radix.Content
          className={classNames.content ?? styles.content}
          {...(role ? { role } : {})}
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
          aria-busy={onSubmit ? undefined : busy}
          {...dialogKeepsNotices}
        >
          {onSubmit ? (
            <form className={classNames.form} onSubmit={onSubmit} aria-busy={busy} noValidate={noValidate}>
              {inner}
            </form>
          ) : (
            inner
          )}
        </Radix.Content>
      </Radix.Portal>
    </Radix.Root>
  );
}

/** A button that closes the dialog it is in (Cancel, Close, the header's ✕). */
export function DialogClose(props: ButtonProps) {
  return (
    <Radix.Close asChild>
      <Button {...props} />
    </Radix.Close>
  );
}

/** The header's ✕: closes the dialog, named by its label. */
export function DialogCloseIcon({ label, disabled }: { label: string; disabled?: boolean }) {
  return (
    <Radix.Close asChild>
      <IconButton label={label} disabled={disabled}>
        <X aria-hidden />
      </IconButton>
    </Radix.Close>
  );
}

/** The small spinner a dialog's button shows while its action runs. */
export function DialogSpinner() {
  return <span className={styles.spinner} aria-hidden />;
}

export interface FormDialogProps {
  open?: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  busy: boolean;
  /** Called on submit (Enter or the submit button); the form's default is prevented. */
  onSubmit(): void;
  /** Create unless told. */
  submitLabel?: ReactNode;
  /** A refusal of the whole form, shown above the buttons. */
  error?: ReactNode;
  noValidate?: boolean;
  children: ReactNode;
}

/** A small form in a dialog: its fields, an error line, Cancel, and the submit button with its spinner. */
export function FormDialog({
  open,
  onOpenChange,
  title,
  busy,
  onSubmit,
  submitLabel,
  error,
  noValidate,
  children,
}: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      title={title}
      noValidate={noValidate}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      actions={
        <>
          <DialogClose disabled={busy}>{t('common.cancel')}</DialogClose>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? <DialogSpinner /> : null}
            {submitLabel ?? t('common.create')}
          </Button>
        </>
      }
    >
      <div className={styles.fields}>{children}</div>
      <FormError className={styles.error}>{error}</FormError>
    </Dialog>
  );
}
