import type { HTMLAttributes } from 'react';
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
