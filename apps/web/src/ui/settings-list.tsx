import type { HTMLAttributes, ReactNode } from 'react';
import { useTranslation, type TextKey } from '../i18n';
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

/** A text namespace with the four texts of a loaded list: listLabel, loadFailed, retry and empty. */
export type LoadedListTexts = {
  [K in TextKey]: K extends `${infer N}.listLabel`
    ? `${N}.loadFailed` | `${N}.retry` | `${N}.empty` extends TextKey
      ? N
      : never
    : never;
}[TextKey];

/**
 * A settings list read from the server, in whichever state its query is: grey rows while it loads, its failure
 * (role="alert") with a retry, its rows (each drawn by `children`, with its key), or its empty state. The texts are
 * `texts`' listLabel (the list's name), loadFailed, retry and empty.
 */
export function SettingsLoadedList<T>({
  query,
  texts,
  icon,
  children,
}: {
  query: { data: readonly T[] | undefined; isPending: boolean; isError: boolean; refetch(): unknown };
  texts: LoadedListTexts;
  /** The icon of the failure and of the empty state (aria-hidden). */
  icon: ReactNode;
  children(item: T): ReactNode;
}) {
  const { t } = useTranslation();
  const { data, isPending, isError } = query;
  if (isPending) return <SettingsSkeleton rows={2} aria-hidden />;
  if (isError && !data)
    return (
      <SettingsState role="alert">
        {icon}
        <p>{t(`${texts}.loadFailed`)}</p>
        <Button onClick={() => void query.refetch()}>{t(`${texts}.retry`)}</Button>
      </SettingsState>
    );
  if (data && data.length > 0)
    return <SettingsList aria-label={t(`${texts}.listLabel`)}>{data.map(children)}</SettingsList>;
  return (
    <SettingsState>
      {icon}
      <p>{t(`${texts}.empty`)}</p>
    </SettingsState>
  );
}
