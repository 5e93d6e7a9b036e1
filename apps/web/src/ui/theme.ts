import type { Settings } from '@mailroom/protocol';

export type Theme = Settings['theme'];

// The theme the account last chose, kept in the browser so the next page load paints in it before the account is
// read (no light flash on a dark screen). Part of the mail shell's first load: kept small (DESIGN §5).
const STORAGE_KEY = 'mailroom.theme';

let stopFollowing: (() => void) | undefined;

/**
 * Applies a theme to the document: light, dark, or the system's (followed while it changes). Remembered for the
 * next load.
 */
export function applyTheme(theme: Theme): void {
  stopFollowing?.();
  stopFollowing = undefined;
  // tokens.css: light on :root, dark one attribute away.
  const root = document.documentElement;
  if (theme === 'system' && typeof window.matchMedia === 'function') {
    const query = window.matchMedia('(prefers-color-scheme: dark)');
    const follow = () => {
      root.dataset.theme = query.matches ? 'dark' : 'light';
    };
    query.addEventListener?.('change', follow);
    stopFollowing = () => query.removeEventListener?.('change', follow);
    follow();
  } else root.dataset.theme = theme === 'dark' ? 'dark' : 'light';
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
