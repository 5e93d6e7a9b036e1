import clsx from 'clsx';
import { useTranslation } from '../i18n';
import styles from './preloader.module.css';

export function Preloader({ fullscreen = false }: { fullscreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={clsx(styles.preloader, fullscreen && styles.fullscreen)} role="status" aria-live="polite">
      <span className={styles.spinner} aria-hidden />
      <span className="visually-hidden">{t('app.loading')}</span>
    </div>
  );
}
