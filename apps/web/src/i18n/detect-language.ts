import { DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES, type Language } from '@mailroom/protocol';

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export interface LanguageSources {
  /** location.search, e.g. '?lang=ru' */
  search: string;
  /** the lang cookie, if any */
  cookie: string | null;
  /** navigator.language, e.g. 'ru-RU' */
  browser: string | undefined;
}

/** SPEC §9: the lang query parameter overrides; else the cookie; else the browser's first two letters; else en. */
export function detectLanguage({ search, cookie, browser }: LanguageSources): Language {
  const query = new URLSearchParams(search).get('lang')?.toLowerCase();
  if (isSupportedLanguage(query)) return query;
  const fromCookie = cookie?.toLowerCase();
  if (isSupportedLanguage(fromCookie)) return fromCookie;
  const fromBrowser = browser?.slice(0, 2).toLowerCase();
  if (isSupportedLanguage(fromBrowser)) return fromBrowser;
  return DEFAULT_LANGUAGE;
}
