/**
 * The interface text of SPEC §9 (en, ru): t(key, values) over nested JSON with {{name}} placeholders, the language
 * of the session, and the error catalogue. In-house rather than i18next + react-i18next: those two cost 16 KB
 * gzipped of the mail shell's 110 KB budget (DESIGN §5), and the shell uses none of their features beyond lookup
 * and interpolation (no plurals, formatters, nesting or namespaces in use). The API keeps their shape —
 * `const { t, i18n } = useTranslation()`, `i18n.language` — so screens read as before.
 */
import { useSyncExternalStore } from 'react';
import { LANG_COOKIE, type Language } from '@mailroom/protocol';
import { detectLanguage } from './detect-language';
import { readCookie, writeCookie } from '../lib/cookies';
import { firstScreenTexts } from '../lib/first-screen';
import type en from './locales/en.json';
import type enFeatures from './locales/features.en.json';

type Texts = { readonly [key: string]: string | Texts };

/** 'mail.readerEmptyTitle', …: every text of en.json, so a key that is not there fails the typecheck. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];
export type TextKey = Leaves<typeof en & typeof enFeatures>;
export type TextValues = Readonly<Record<string, string | number>>;
export type Translate = (key: TextKey, values?: TextValues) => string;

// Each language and the error catalogue are their own chunks: the shell loads only the language in use, and the
// error texts when an error is first shown or the page is idle (DESIGN §5 budget).
const interfaceText: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import('./locales/en.json'),
  ru: () => import('./locales/ru.json'),
};
// Texts of the screens that load on demand (compose, decrypt, settings, about, login): they come with those
// chunks, not with the mail shell.
const featureText: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import('./locales/features.en.json'),
  ru: () => import('./locales/features.ru.json'),
};
const errorText: Record<Language, () => Promise<{ default: Record<string, string> }>> = {
  en: () => import('./locales/errors.en.json'),
  ru: () => import('./locales/errors.ru.json'),
};

const ONE_YEAR_S = 365 * 24 * 60 * 60;
// Tests must not pass over a key that is missing at run time (a key built from data, say); users see the key.
const STRICT = import.meta.env.MODE === 'test';

const loadedTexts: Partial<Record<Language, Texts>> = {};
const loadedErrors: Partial<Record<Language, Record<string, string>>> = {};
const loadedFeatures: Partial<Record<Language, Texts>> = {};

function lookup(texts: Texts | undefined, key: string): string | undefined {
  let node: string | Texts | undefined = texts;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

function interpolate(text: string, values: Readonly<Record<string, unknown>> | undefined): string {
  if (!values) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) =>
    name in values ? String(values[name]) : placeholder,
  );
}

function translator(language: Language): Translate {
  return (key, values) => {
    const text = lookup(loadedTexts[language], key) ?? lookup(loadedFeatures[language], key);
    if (text === undefined) {
      if (STRICT) throw new Error(`No ${language} text for '${key}'`);
      return key;
    }
    return interpolate(text, values);
  };
}

export interface I18n {
  readonly language: Language;
  t: Translate;
}

interface Snapshot {
  t: Translate;
  i18n: I18n;
}

function snapshotFor(language: Language): Snapshot {
  const t = translator(language);
  return { t, i18n: { language, t } };
}

// A new snapshot (and so a new t) whenever the language or its text changes, so memoised renders follow.
let current = snapshotFor('en');
const listeners = new Set<() => void>();

function publish(language: Language): void {
  current = snapshotFor(language);
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** t and i18n.language of the current language; the component renders again when it changes. */
export function useTranslation(): Snapshot {
  return useSyncExternalStore(subscribe, () => current);
}

/** The current language's t and language, for code outside components. */
const i18n: I18n = {
  get language() {
    return current.i18n.language;
  },
  t: (key, values) => current.t(key, values),
};
export default i18n;

export function initialLanguage(): Language {
  return detectLanguage({
    search: window.location.search,
    cookie: readCookie(LANG_COOKIE),
    browser: navigator.language,
  });
}

async function ensureTexts(language: Language): Promise<void> {
  // A signed-in browser's index.html carries the text of its language: the first paint waits for no chunk.
  loadedTexts[language] ??=
    (firstScreenTexts(language) as Texts | undefined) ?? (await interfaceText[language]()).default;
}

async function ensureFeatures(language: Language): Promise<void> {
  loadedFeatures[language] ??= (await featureText[language]()).default;
}

async function ensureErrors(language: Language): Promise<void> {
  loadedErrors[language] ??= (await errorText[language]()).default;
}

/** Loads the interface text of the language of SPEC §9; resolves when the first render can happen. */
export async function initI18n(language: Language = initialLanguage()): Promise<I18n> {
  await ensureTexts(language);
  publish(language);
  return i18n;
}

/**
 * The texts of the on-demand screens (compose, decrypt, settings, about, login) in the current language; their lazy chunks wait for it,
 * so they never render a key. Safe to call often.
 */
export async function loadFeatureTexts(): Promise<void> {
  const language = i18n.language;
  if (loadedFeatures[language]) return;
  await ensureFeatures(language);
  publish(language);
}

/** A lazy chunk's loader that also waits for the on-demand texts, so what it draws never shows a key. */
export function withFeatureTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadFeatureTexts()]).then(([chunk]) => chunk);
}

/** The error catalogue in the current language; safe to call often. */
export function loadErrorTexts(): Promise<void> {
  return ensureErrors(i18n.language);
}

/** Switch the interface language and remember it for a year (SPEC §9). */
export async function setLanguage(language: Language): Promise<void> {
  writeCookie(LANG_COOKIE, language, { maxAgeSeconds: ONE_YEAR_S });
  await ensureTexts(language);
  if (loadedErrors[i18n.language]) await ensureErrors(language);
  if (loadedFeatures[i18n.language]) await ensureFeatures(language);
  publish(language);
}

/** The catalogue text for an error code in the current language, or null when there is none. */
export function translateErrorCode(code: string, values?: Readonly<Record<string, unknown>>): string | null {
  const text = loadedErrors[i18n.language]?.[code];
  return text ? interpolate(text, values) : null;
}
