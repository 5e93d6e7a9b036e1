import { useEffect, type ReactNode } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from '../i18n';
import clsx from 'clsx';
import { ComposeHost, NewMessageButton } from '../features/compose';
import { folderKeys } from '../features/folders';
import { mailKeys, useDropOnFolder } from '../features/mail';
import { ImpersonationBar, Sidebar, useUi } from '../features/shell';
import { useLocation } from '../lib/router';
import { useAccountPreferences } from './account-preferences';
import styles from './app-shell.module.css';

/** After a send or a draft save: every list and opened message, and the folders' counters. */
function refreshAfterSave(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: mailKeys.all });
  void client.invalidateQueries({ queryKey: folderKeys.folders });
}

/**
 * Runs `then` once no query is loading any more (the first screen has its data) and the browser has drawn it and
 * is idle. Returns the function that cancels the wait.
 */
function afterFirstScreen(client: QueryClient, then: () => void): () => void {
  let unsubscribe = () => {};
  let idle: number | null = null;
  const whenIdle = () => {
    unsubscribe();
    if (idle !== null) return;
    idle =
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(then, { timeout: 2000 })
        : window.setTimeout(then, 200);
  };
  if (client.isFetching() === 0) whenIdle();
  else
    unsubscribe = client.getQueryCache().subscribe(() => {
      if (client.isFetching() === 0) whenIdle();
    });
  return () => {
    unsubscribe();
    if (idle === null) return;
    if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idle);
    else window.clearTimeout(idle);
  };
}

/** The frame shared by mail, settings and contacts: sidebar on the left (slide-in below 768 px), content on the right. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const open = useUi((state) => state.sidebarOpen);
  const setOpen = useUi((state) => state.setSidebarOpen);
  const queryClient = useQueryClient();
  const dropOnFolder = useDropOnFolder();
  const appName = t('app.name');
  useAccountPreferences();
  // The shell renders only after start-up succeeded (SPEC §4: a successful sign-in opens the websocket). Nothing
  // on screen needs the socket to draw, so its code loads once the first screen's data is in and drawn (DESIGN §5:
  // initial JS); the socket then catches up from the time that data was read (?since=), so nothing is missed.
  useEffect(() => {
    let stop: (() => void) | null = null;
    let cancelled = false;
    const cancelWait = afterFirstScreen(queryClient, () => {
      useUi.setState({ settled: true });
      void import('./live-updates').then(({ startAppLiveUpdates }) => {
        if (!cancelled) stop = startAppLiveUpdates(queryClient, appName);
      });
    });
    return () => {
      cancelled = true;
      cancelWait();
      stop?.();
    };
  }, [queryClient, appName]);

  useEffect(() => setOpen(false), [pathname, setOpen]);

  useEffect(() => {
    if (!open) return;
    // Escape in a menu or dialog over the drawer (a folder's menu) closes that one only.
    const onKey = (event: KeyboardEvent) =>
      event.key === 'Escape' &&
      !(
        event.target instanceof Element &&
        event.target.closest('[role="menu"], [role="dialog"], [role="alertdialog"]')
      ) &&
      setOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, setOpen]);

  return (
    <div className={styles.shell}>
      <a className={styles.skip} href="#main">
        {t('app.skipToContent')}
      </a>
      <aside className={clsx(styles.sidebar, open && styles.open)} data-testid="sidebar">
        <Sidebar
          newMessage={<NewMessageButton onOpened={() => setOpen(false)} />}
          onDropMessages={dropOnFolder}
        />
      </aside>
      {open ? <div className={styles.backdrop} onClick={() => setOpen(false)} aria-hidden /> : null}
      <main id="main" className={styles.main} tabIndex={-1}>
        <ImpersonationBar />
        {children}
      </main>
      {/* Portalled to <body>, so the sidebar's slide-in transform on mobile is not its containing block. */}
      <ComposeHost onSaved={refreshAfterSave} />
    </div>
  );
}
