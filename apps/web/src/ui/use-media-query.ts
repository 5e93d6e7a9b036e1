import { useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now, re-rendering when it changes (layout switches at SPEC §2 widths).
 * `fallback` answers where there is no matchMedia (tests): the desktop layout.
 */
export function useMediaQuery(query: string, fallback = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : fallback),
  );
}
