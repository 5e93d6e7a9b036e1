import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANG_COOKIE, type Language } from '@mailroom/protocol';
import { detectLanguage } from './detect-language';
import { readCookie, writeCookie } from '../app/cookies';

// Each language and the error catalogue are their own chunks: the shell loads only the language in use, and the
// error texts when an error is first shown or the page is idle (DESIGN §5 budget).
const interfaceText: Record<Language, () => Promise<{ default: object }>> = {
  en: () => import('./locales/en.json'),
  ru: () => import('./locales/ru.json'),
};
const errorText: Record<Language, () => Promise<{ default: object }>> = {
  en: () => import('./locales/errors.en.json'),
  ru: () => import('./locales/errors.ru.json'),
};

const ONE_YEAR_S = 365 * 24 * 60 * 60;

export function initialLanguage(): Language {
  return detectLanguage({
    search: window.location.search,
    cookie: readCookie(LANG_COOKIE),
    browser: navigator.language,
  });
}

function currentLanguage(): Language {
  return i18n.language === 'ru' ? 'ru' : 'en';
}

async function ensureBundle(language: Language, namespace: 'translation' | 'errors'): Promise<void> {
  if (i18n.hasResourceBundle(language, namespace)) return;
  const loader = namespace === 'translation' ? interfaceText[language] : errorText[language];
  const { default: resources } = await loader();
  i18n.addResourceBundle(language, namespace, resources, true, true);
}

/** Starts i18next with the language of SPEC §9 and its interface text; resolves when the first render can happen. */
export async function initI18n(language: Language = initialLanguage()): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      lng: language,
      fallbackLng: false,
      ns: ['translation', 'errors'],
      defaultNS: 'translation',
      resources: {},
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await ensureBundle(language, 'translation');
  if (i18n.language !== language) await i18n.changeLanguage(language);
  document.documentElement.lang = language;
  return i18n;
}

/** The error catalogue in the current language; safe to call often. */
export function loadErrorTexts(): Promise<void> {
  return ensureBundle(currentLanguage(), 'errors');
}

/** Switch the interface language and remember it for a year (SPEC §9). */
export async function setLanguage(language: Language): Promise<void> {
  writeCookie(LANG_COOKIE, language, { maxAgeSeconds: ONE_YEAR_S });
  await ensureBundle(language, 'translation');
  if (i18n.hasResourceBundle(currentLanguage(), 'errors')) await ensureBundle(language, 'errors');
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}

/** The catalogue text for an error code in the current language, or null when there is none. */
export function translateErrorCode(code: string, values?: Record<string, unknown>): string | null {
  if (!i18n.exists(code, { ns: 'errors' })) return null;
  const text = i18n.t(code, { ns: 'errors', ...values } as never) as unknown as string;
  return text || null;
}

export default i18n;
