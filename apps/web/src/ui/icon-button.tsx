import { forwardRef, type ReactNode } from 'react';
import { Button, buttonClass, type ButtonProps } from './button';
import { Link } from '../lib/router';

export interface IconButtonProps extends Omit<ButtonProps, 'iconOnly' | 'aria-label' | 'title' | 'children'> {
  /** What the button does: its accessible name and its tooltip. */
  label: string;
  /** A shorter tooltip where the label names the item too ("Delete" for "Delete Invoices"). */
  tooltip?: string;
  /** The icon (aria-hidden). */
  children: ReactNode;
}

/** A button that shows only an icon: it is named by its label, which is also its tooltip (SPEC §2). Ghost unless told. */
export const IconButton = forwardRef<HTMLButtonElement, IconButtonProps>(function IconButton(
  { label, tooltip, variant = 'ghost', children, ...rest },
  ref,
) {
  return (
    <Button ref={ref} variant={variant} iconOnly aria-label={label} title={tooltip ?? label} {...rest}>
      {children}
    </Button>
  );
});

/** A link that shows only an icon, named as IconButton is: by its label, which is its tooltip unless one is given. */
export function IconLink({
  to,
  label,
  tooltip,
  children,
}: {
  to: string;
  label: string;
  tooltip?: string;
  /** The icon (aria-hidden). */
  children: ReactNode;
}) {
  return (
    <Link to={to} className={buttonClass('ghost')} aria-label={label} title={tooltip ?? label}>
      {children}
    </Link>
  );
}
