import type { HTMLAttributes, ReactNode } from 'react';
import { Button } from './button';
import clsx from 'clsx';
import styles from './settings-list.module.css';

/** A settings screen's list (folders, labels, aliases, domains, profiles…): one bordered column of rows. */
export function SettingsList({ className, ...rest }: HTMLAttributes<HTMLUListElement>) {
  return <ul className={clsx(styles.list, className)} {...rest} />;
}

/**
 * A settings list's state instead of its rows: empty, failed to load (role="alert", with a retry) or not found; a calm
 * panel with an icon, what happened and what to do next.
 */
export function SettingsState({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={clsx(styles.state, className)} {...rest} />;
}

/** A settings list while it loads: grey rows where the rows will be. */
export function SettingsSkeleton({
  rows,
  className,
  ...rest
}: HTMLAttributes<HTMLDivElement> & { rows: number }) {
  return (
    <div className={clsx(styles.skeleton, className)} {...rest}>
      {Array.from({ length: rows }, (_, index) => (
        <span key={index} />
      ))}
    </div>
  );
}

/**
 * A settings list read from the server, in whichever state it is: grey rows while it loads, its failure (role="alert")
 * with a retry, its rows (each drawn by `children`, with its key), or its empty state.
 */
export function SettingsLoadedList<T>({
  items,
  pending,
  failed,
  onRetry,
  icon,
  label,
  loadFailed,
  retry,
  empty,
  children,
}: {
  items: readonly T[] | undefined;
  pending: boolean;
  failed: boolean;
  onRetry(): void;
  /** The icon of the failure and of the empty state (aria-hidden). */
  icon: ReactNode;
  /** The list's accessible name. */
  label: string;
  loadFailed: ReactNode;
  retry: ReactNode;
  empty: ReactNode;
  children(item: T): ReactNode;
}) {
  if (pending) return <SettingsSkeleton rows={2} aria-hidden />;
  if (failed)
    return (
      <SettingsState role="alert">
        {icon}
        <p>{loadFailed}</p>
        <Button onClick={onRetry}>{retry}</Button>
      </SettingsState>
    );
  if (items && items.length > 0) return <SettingsList aria-label={label}>{items.map(children)}</SettingsList>;
  return (
    <SettingsState>
      {icon}
      <p>{empty}</p>
    </SettingsState>
  );
}
