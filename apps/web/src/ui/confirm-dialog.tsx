import type { ReactNode } from 'react';
import { LazyPart, lazyChunk } from './lazy-route';

const ConfirmDialogImpl = lazyChunk(() => import('./confirm-dialog-impl'));

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  text: ReactNode;
  confirmLabel?: ReactNode;
  danger?: boolean;
  /** Nothing to decide, only to read (why an action cannot be done): one button, which closes. */
  acknowledgeOnly?: boolean;
  /** May return a promise: the dialog shows a spinner and stays open until it settles. */
  onConfirm(): void | Promise<void>;
  /** The action failed: the dialog stays open; the caller shows the error (ui knows no error catalogue). */
  onError(error: unknown): void;
}

/** SPEC §2 confirm dialog: title, text, yes/cancel, a spinner while the action runs. Loads when first opened. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  if (!props.open) return null;
  return (
    <LazyPart variant="notice" onFailed={() => props.onOpenChange(false)}>
      <ConfirmDialogImpl {...props} />
    </LazyPart>
  );
}

/**
 * A ConfirmDialog about one item (a label to delete, an access to revoke): open while `item` is not null. `onClose`
 * clears it, when the dialog is dismissed or once `onConfirm` has done its work.
 */
export function ConfirmItem<T>({
  item,
  onClose,
  onConfirm,
  ...rest
}: Omit<ConfirmDialogProps, 'open' | 'onOpenChange' | 'onConfirm'> & {
  item: T | null;
  onClose(): void;
  onConfirm(item: T): void | Promise<void>;
}) {
  return (
    <ConfirmDialog
      {...rest}
      open={item !== null}
      onOpenChange={(open) => !open && onClose()}
      onConfirm={async () => {
        await onConfirm(item!);
        onClose();
      }}
    />
  );
}
