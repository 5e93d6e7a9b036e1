import { useId, type ReactNode } from 'react';
import { CloudOff, ShieldOff } from 'lucide-react';
import { useTranslation } from '../../i18n';
import { Button } from '../../ui/button';
import page from '../../ui/settings-page.module.css';
import { useUser } from '../account';
import styles from './security.module.css';
import { SettingsSkeleton, SettingsState } from '../../ui/settings-list';

/**
 * The owner's own sections (settings/access, ba, support): a session that opened someone else's mailbox gets
 * forbidden for every call of them (security.ts), so it is told so rather than shown a screen that fails.
 */
export function OwnerOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useUser();
  if (!user?.info.impersonator) return children;
  return (
    <section className={page.page}>
      <SettingsState role="alert">
        <ShieldOff aria-hidden />
        <p>{t('security.ownerOnly', { email: user.email })}</p>
      </SettingsState>
    </section>
  );
}

/** A part still loading (skeleton rows), or one that failed to load with a way to try again. */
export function SectionLoading({ failed, onRetry }: { failed: boolean; onRetry(): void }) {
  const { t } = useTranslation();
  if (failed)
    return (
      <SettingsState>
        <CloudOff aria-hidden />
        <p>{t('security.loadFailed')}</p>
        <Button onClick={onRetry}>{t('security.retry')}</Button>
      </SettingsState>
    );
  return <SettingsSkeleton rows={3} aria-busy="true" aria-label={t('security.loading')} />;
}

/** A titled group of a security screen. */
export function Group({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={page.group} aria-labelledby={id}>
      <h3 id={id} className={styles.groupTitle}>
        {title}
      </h3>
      {children}
    </section>
  );
}
