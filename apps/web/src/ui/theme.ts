import type { Settings } from '@mailroom/protocol';

export type Theme = Settings['theme'];

// The theme the account last chose, kept in the browser so the next page load paints in it before the account is
// read (no light flash on a dark screen).
const STORAGE_KEY = 'mailroom.theme';
const darkQuery = '(prefers-color-scheme: dark)';

let chosen: Theme = 'system';
let stopFollowing: (() => void) | null = null;

function systemIsDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(darkQuery).matches;
}

function paint(dark: boolean): void {
  // tokens.css: light on :root, dark one attribute away.
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/**
 * Applies a theme to the document: light, dark, or the system's (followed while it changes). Remembered for the
 * next load.
 */
export function applyTheme(theme: Theme): void {
  chosen = theme;
  stopFollowing?.();
  stopFollowing = null;
  if (theme === 'system' && typeof window.matchMedia === 'function') {
    const query = window.matchMedia(darkQuery);
    const follow = () => chosen === 'system' && paint(query.matches);
    query.addEventListener?.('change', follow);
    stopFollowing = () => query.removeEventListener?.('change', follow);
  }
  paint(theme === 'dark' || (theme === 'system' && systemIsDark()));
  try {
    localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Storage may be off (private mode, a frame): the theme still applies to this page.
  }
}

/** The theme remembered from the last visit, applied before the first paint. */
export function applyRememberedTheme(): void {
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(STORAGE_KEY);
  } catch {
    // as above
  }
  applyTheme(remembered === 'light' || remembered === 'dark' ? remembered : 'system');
}
