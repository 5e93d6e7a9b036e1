import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Mail } from 'lucide-react';
import { LanguageSwitcher } from './language-switcher';
import { Link } from '../../lib/router';
import styles from './public-layout.module.css';
import { FooterLinks } from './shell-footer';

/** The frame of the pages that work without a session: about, login, decrypt. */
export function PublicLayout({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  const { t } = useTranslation();
  const year = new Date().getFullYear();
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Link to="/about" className={styles.brand}>
          <Mail aria-hidden />
          {t('app.name')}
        </Link>
        <div className={styles.actions}>
          <LanguageSwitcher />
          {actions}
        </div>
      </header>
      <main id="main" className={styles.main}>
        {children}
      </main>
      <footer className={styles.footer}>
        <FooterLinks className={styles.links} />
        <p>{t('footer.copyright', { year })}</p>
      </footer>
    </div>
  );
}
