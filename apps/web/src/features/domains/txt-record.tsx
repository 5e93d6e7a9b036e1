import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import styles from './domains.module.css';

/** A TXT record to publish, as a list of its type, name and value (each given with its copy button). */
export function TxtRecord({ name, value }: { name: ReactNode; value: ReactNode }) {
  const { t } = useTranslation();
  return (
    <dl className={styles.publish}>
      <dt>{t('domains.dns.type')}</dt>
      <dd>
        <code>TXT</code>
      </dd>
      <dt>{t('domains.dns.name')}</dt>
      <dd>{name}</dd>
      <dt>{t('domains.confirm.value')}</dt>
      <dd>{value}</dd>
    </dl>
  );
}
