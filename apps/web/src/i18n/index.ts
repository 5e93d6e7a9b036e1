import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANG_COOKIE, type Language } from '@mailroom/protocol';
import en from './locales/en.json';
import ru from './locales/ru.json';
import errorsEn from './locales/errors.en.json';
import errorsRu from './locales/errors.ru.json';
import { detectLanguage } from './detect-language';
import { readCookie, writeCookie } from '../app/cookies';

export const resources = {
  en: { translation: en, errors: errorsEn },
  ru: { translation: ru, errors: errorsRu },
} as const;

const ONE_YEAR_S = 365 * 24 * 60 * 60;

export function initialLanguage(): Language {
  return detectLanguage({
    search: window.location.search,
    cookie: readCookie(LANG_COOKIE),
    browser: navigator.language,
  });
}

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'en',
  ns: ['translation', 'errors'],
  defaultNS: 'translation',
  interpolation: { escapeValue: false },
  returnNull: false,
  // Resources are bundled, so init is synchronous and the first render already has text.
  initAsync: false,
});
document.documentElement.lang = i18n.language;

/** Switch the interface language and remember it for a year (SPEC §9). */
export function setLanguage(language: Language): void {
  writeCookie(LANG_COOKIE, language, { maxAgeSeconds: ONE_YEAR_S });
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

/** The catalogue text for an error code in the current language, or null when there is none. */
export function translateErrorCode(code: string, values?: Record<string, unknown>): string | null {
  if (!i18n.exists(code, { ns: 'errors' })) return null;
  const text = i18n.t(code, { ns: 'errors', ...values } as never) as unknown as string;
  return text || null;
}

export default i18n;
