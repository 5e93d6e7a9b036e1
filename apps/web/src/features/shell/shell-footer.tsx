import { useTranslation } from '../../i18n';
import { LanguageSwitcher } from './language-switcher';
import styles from './shell-footer.module.css';

export function ShellFooter() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <nav aria-label={t('footer.label')} className={styles.links}>
        <a href={t('footer.termsUrl')} target="_blank" rel="noreferrer">
          {t('footer.terms')}
        </a>
        <a href={t('footer.privacyUrl')} target="_blank" rel="noreferrer">
          {t('footer.privacy')}
        </a>
        <a href={`mailto:${t('footer.supportEmail')}`}>{t('footer.support')}</a>
      </nav>
      <LanguageSwitcher />
      <p className={styles.copyright}>{t('footer.copyright', { year })}</p>
    </footer>
  );
}
