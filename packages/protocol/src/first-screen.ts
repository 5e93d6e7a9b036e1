import { DEFAULT_LANGUAGE, LIST_PAGE_SIZE, SUPPORTED_LANGUAGES, type Language } from './constants.js';
import type { AccessResponse } from './schemas/auth.js';
import type { Account } from './schemas/user.js';

/**
 * What the web app and the server agree on about the first mail screen: the server reads the answers that screen
 * asks for while it serves index.html to a signed-in browser, and writes them into the page (issue 32, cold first
 * screen); the app takes each once instead of asking again. They must compute the same addresses, so they share this.
 */

/** The id of index.html's data block (`<script type="application/json">`, never run). */
export const FIRST_SCREEN_ELEMENT_ID = 'mr-first-screen';

/** One answer of the API as the server gave it: its body, and its x-mailroom-clock (0 when the route sets none). */
export interface FirstScreenAnswer {
  body: unknown;
  clock: number;
}

/** index.html's data block: GET answers by the address the app asks (path and query), and the interface text. */
export interface FirstScreenData {
  answers: Record<string, FirstScreenAnswer>;
  /** The language the server expected the page to pick, and that language's interface text (locales/<lang>.json). */
  language?: Language;
  texts?: unknown;
}

export function isSupportedLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export interface LanguageSources {
  /** location.search, e.g. '?lang=ru' */
  search: string;
  /** the lang cookie, if any */
  cookie: string | null;
  /** navigator.language (the server: the first of Accept-Language), e.g. 'ru-RU' */
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

/**
 * The a_id an alias-only user is kept to (SPEC §6: alias selector locked): their alias's id, or null for a full
 * member, who may look at any alias or 'all'.
 */
export function lockedAliasId(user: AccessResponse | undefined, account: Account | undefined): string | null {
  const alias = user?.info.alias;
  if (!alias) return null;
  const match = account?.aliases.find((candidate) => candidate.email.toLowerCase() === alias.toLowerCase());
  return match ? String(match.id) : 'all';
}

/** The page size of a folder's list: the limit query parameter, else the per_page setting. */
export function listPageSize(search: URLSearchParams, account: Account): number {
  return Number(search.get('limit')) || account.settings.per_page || LIST_PAGE_SIZE;
}

/** The mail routes whose first screen is a folder's list: /mail (the Inbox) or /mail/folder/:a_id/:folder/:page. */
export type FirstScreenRoute =
  { kind: 'inbox' } | { kind: 'folder'; aliasId: string; folderId: number; page: number };

export function firstScreenRoute(pathname: string): FirstScreenRoute | null {
  if (/^\/(mail\/?)?$/.test(pathname)) return { kind: 'inbox' };
  const folder = /^\/mail\/folder\/([^/]+)\/(\d+)\/(\d+)(\/|$)/.exec(pathname);
  if (!folder) return null;
  return {
    kind: 'folder',
    aliasId: folder[1]!,
    folderId: Number(folder[2]),
    page: Math.max(1, Number(folder[3])),
  };
}
