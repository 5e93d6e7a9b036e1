import { forwardRef, type ButtonHTMLAttributes } from 'react';
import clsx from 'clsx';
import styles from './button.module.css';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'normal' | 'large';
  iconOnly?: boolean;
  block?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'secondary', size = 'normal', iconOnly, block, className, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={clsx(
        styles.button,
        styles[variant],
        size === 'large' && styles.large,
        iconOnly && styles.icon,
        block && styles.block,
        className,
      )}
      {...rest}
    />
  );
});

/** The same look for links (router links or plain anchors) that act as buttons. */
export function buttonClass(
  variant: NonNullable<ButtonProps['variant']> = 'secondary',
  size: ButtonProps['size'] = 'normal',
): string {
  return clsx(styles.button, styles[variant], size === 'large' && styles.large);
}
