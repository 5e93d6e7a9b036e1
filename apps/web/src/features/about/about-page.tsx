import { useTranslation } from '../../i18n';
import { AtSign, HardDrive, Paperclip } from 'lucide-react';
import {
  ATTACHMENTS_TOTAL_LIMIT_BYTES,
  FILES_QUOTA_BYTES,
  MAIL_QUOTA_BYTES,
  PAID_ALIAS_PRICE,
  formatFileSize,
} from '@mailroom/protocol';
import { PublicLayout } from '../shell';
import { Link } from '../../lib/router';
import { buttonClass } from '../../ui/button';
import { savedRedirectPath, signInUrl, useUser } from '../account';
import styles from './about-page.module.css';

export default function AboutPage() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  // A visitor sent here by a 401 (SPEC §4) goes back to the deep link they opened once signed in (SPEC §2, §8).
  const signIn = signInUrl(savedRedirectPath());
  const cta = user ? (
    <Link className={buttonClass('primary')} to="/mail">
      {t('about.openMail')}
    </Link>
  ) : (
    <a className={buttonClass('primary')} href={signIn}>
      {t('about.signIn')}
    </a>
  );

  const features = [
    {
      icon: HardDrive,
      title: t('about.storageTitle', { size: formatFileSize(MAIL_QUOTA_BYTES, i18n.language) }),
      text: t('about.storageText', { files: formatFileSize(FILES_QUOTA_BYTES, i18n.language) }),
    },
    {
      icon: AtSign,
      title: t('about.aliasesTitle'),
      text: t('about.aliasesText', { price: PAID_ALIAS_PRICE }),
    },
    {
      icon: Paperclip,
      title: t('about.attachmentsTitle'),
      text: t('about.attachmentsText', {
        size: formatFileSize(ATTACHMENTS_TOTAL_LIMIT_BYTES, i18n.language),
      }),
    },
  ];

  return (
    <PublicLayout actions={cta}>
      <section className={styles.hero} data-testid="about-page">
        <h1 className={styles.title}>{t('about.title')}</h1>
        <p className={styles.lead}>{t('about.lead')}</p>
        <div className={styles.heroActions}>
          {user ? (
            <Link className={buttonClass('primary', 'large')} to="/mail">
              {t('about.openMail')}
            </Link>
          ) : (
            <a className={buttonClass('primary', 'large')} href={signIn}>
              {t('about.signIn')}
            </a>
          )}
        </div>
      </section>
      <section aria-labelledby="features-title">
        <h2 id="features-title" className="visually-hidden">
          {t('about.features')}
        </h2>
        <ul className={styles.features}>
          {features.map(({ icon: Icon, title, text }) => (
            <li key={title} className={styles.feature}>
              <span className={styles.featureIcon}>
                <Icon aria-hidden />
              </span>
              <h3 className={styles.featureTitle}>{title}</h3>
              <p className={styles.featureText}>{text}</p>
            </li>
          ))}
        </ul>
      </section>
    </PublicLayout>
  );
}
