import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../i18n';
import { CloudOff } from 'lucide-react';
import { useUser } from '../features/account';
import { Preloader } from '../ui/preloader';
import { Button } from '../ui/button';
import { AppShell } from './app-shell';
import { Navigate } from '../lib/router';
import { useSession } from './startup';
import styles from '../ui/startup-failed.module.css';

function StartupFailed() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return (
    <main className={styles.panel} role="alert">
      <CloudOff className={styles.icon} aria-hidden />
      <h1 className={styles.title}>{t('app.failedTitle')}</h1>
      <p className={styles.text}>{t('app.failedText')}</p>
      <Button variant="primary" onClick={() => void queryClient.refetchQueries({ type: 'all' })}>
        {t('app.retry')}
      </Button>
    </main>
  );
}

/**
 * Mail, settings and contacts need the user, account and rid first (SPEC §2 guard); until then, the preloader.
 * Every protected route renders its page through this, so the shell around it stays mounted between them.
 */
export function Protected({ children }: { children: ReactNode }) {
  const status = useSession((state) => state.status);
  const signOnRequired = useSession((state) => state.signOnRequired);
  if (status === 'success') return <AppShell>{children}</AppShell>;
  if (status === 'failed' && !signOnRequired) return <StartupFailed />;
  return <Preloader fullscreen />;
}

/** Alias-only users are kept out of settings and contacts (SPEC §2, §6). */
export function NoAliasGuard({ children }: { children: ReactNode }) {
  const user = useUser();
  if (user?.info.alias) return <Navigate to="/mail" replace />;
  return children;
}
