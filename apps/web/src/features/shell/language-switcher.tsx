import { SUPPORTED_LANGUAGES, type Language } from '@mailroom/protocol';
import clsx from 'clsx';
import { setLanguage, useTranslation } from '../../i18n';
import styles from './shell-footer.module.css';

// Each language is named in itself, so it can be found whatever the current language is.
const order: readonly Language[] = ['ru', 'en'];

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  return (
    <div className={styles.languages} role="group" aria-label={t('footer.language')}>
      {order
        .filter((language) => SUPPORTED_LANGUAGES.includes(language))
        .map((language) => {
          const current = i18n.language === language;
          return (
            <button
              key={language}
              type="button"
              lang={language}
              className={clsx(styles.language, current && styles.current)}
              aria-pressed={current}
              onClick={() => void setLanguage(language)}
            >
              {t(`language.${language}`)}
            </button>
          );
        })}
    </div>
  );
}
