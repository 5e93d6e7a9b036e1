import { useTranslation } from '../../i18n';
import { formatFileSize, quotaPercent, type Quota } from '@mailroom/protocol';
import clsx from 'clsx';
import styles from './sidebar.module.css';

/** 'Used X of Y' with a bar in percent; the API speaks KB (SPEC §3), sizes are shown in base 1024 (SPEC §9). */
export function QuotaBar({ quota }: { quota: Quota }) {
  const { t, i18n } = useTranslation();
  const used = quota.size * 1024;
  const limit = quota.limit * 1024;
  const percent = quotaPercent(used, limit);
  const text = t('quota.used', {
    used: formatFileSize(used, i18n.language),
    limit: formatFileSize(limit, i18n.language),
  });
  return (
    <div className={styles.quota} data-testid="quota">
      <div
        className={styles.quotaTrack}
        role="progressbar"
        aria-label={t('quota.label')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(percent)}
        aria-valuetext={text}
      >
        <div
          className={clsx(styles.quotaFill, percent >= 90 && styles.quotaFull)}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className={styles.quotaText}>{text}</p>
    </div>
  );
}
