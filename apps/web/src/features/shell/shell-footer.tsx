import { useTranslation } from '../../i18n';
import { LanguageSwitcher } from './language-switcher';
import styles from './shell-footer.module.css';

/** The footer's links: terms, privacy and support (the app's footer and the public pages' one). */
export function FooterLinks({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('footer.label')} className={className}>
      <a href={t('footer.termsUrl')} target="_blank" rel="noreferrer">
        {t('footer.terms')}
      </a>
      <a href={t('footer.privacyUrl')} target="_blank" rel="noreferrer">
        {t('footer.privacy')}
      </a>
      <a href={`mailto:${t('footer.supportEmail')}`}>{t('footer.support')}</a>
    </nav>
  );
}

export function ShellFooter() {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <FooterLinks className={styles.links} />
      <LanguageSwitcher />
      <p className={styles.copyright}>{t('footer.copyright', { year })}</p>
    </footer>
  );
}
