import type { ReactNode } from 'react';
import page from './settings-page.module.css';

/** A form's error in words (role="alert", read out when it appears); nothing while there is none. */
export function FormError({
  children,
  className = page.error,
}: {
  children?: ReactNode;
  className?: string;
}) {
  if (!children) return null;
  return (
    <p className={className} role="alert">
      {children}
    </p>
  );
}

/** A settings form's row of buttons, pushed to its end; `start` stands at its beginning (a remove, say). */
export function FormActions({ start, children }: { start?: ReactNode; children?: ReactNode }) {
  return (
    <div className={page.actions}>
      {start}
      <span className={page.grow} />
      {children}
    </div>
  );
}
