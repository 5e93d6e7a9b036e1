import { useMemo } from 'react';
import { LockKeyhole } from 'lucide-react';
import { ENCRYPTED_ID_PATTERN } from '@mailroom/protocol';
import { useTranslation } from '../../i18n';
import { PublicLayout } from '../shell';
import { useSearchParams } from '../../lib/router';
import { publicSource } from './decrypt-api';
import DecryptPanel from './decrypt-panel';
import styles from './decrypt.module.css';

/** /decrypt?id=…: works without an account, like the link in the notice mail promises. */
export default function DecryptPage() {
  const { t } = useTranslation();
  const search = useSearchParams();
  const id = search.get('id') ?? '';
  const valid = ENCRYPTED_ID_PATTERN.test(id);
  const source = useMemo(() => publicSource(id), [id]);
  return (
    <PublicLayout>
      {valid ? (
        <DecryptPanel source={source} headingLevel={1} />
      ) : (
        <section className={styles.prompt}>
          <span className={styles.icon} aria-hidden>
            <LockKeyhole />
          </span>
          <h1 className={styles.title}>{t('decrypt.title')}</h1>
          <p className={styles.problem} role="alert">
            {t('decrypt.badLink')}
          </p>
        </section>
      )}
    </PublicLayout>
  );
}
