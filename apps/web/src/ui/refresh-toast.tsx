import { RotateCw } from 'lucide-react';
import { useTranslation } from '../i18n';
import { useNotices } from './notices-store';
import styles from './refresh-toast.module.css';

/** SPEC §2: shown when live updates are lost; a click reloads the page to get current data. */
export function RefreshToast({ onReload = () => window.location.reload() }: { onReload?: () => void }) {
  const { t } = useTranslation();
  const visible = useNotices((state) => state.refreshToast);
  if (!visible) return null;
  return (
    <div className={styles.toast} role="status">
      <span>{t('refreshToast.text')}</span>
      <button type="button" className={styles.action} onClick={onReload}>
        <RotateCw aria-hidden />
        {t('refreshToast.action')}
      </button>
    </div>
  );
}
