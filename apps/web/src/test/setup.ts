import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy… and waitFor give up after 1 s by default; a lazy chunk or a dialog on a 2-core machine running server tests
// beside it (CI runs both test tiers at once, and engineers' runs) can take longer without being wrong — seen failing
// in CI at 1 s, and at 5 s with the machine's load at 12. What is waited for is still checked; a test that expects
// something never to appear says so itself.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks ResizeObserver, which Radix popovers need.
class ResizeObserverStub {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;

afterEach(() => {
  cleanup();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; max-age=0; path=/`;
  }
  // Files share a worker's jsdom (isolate: false): nothing a test stored reaches the next file.
  localStorage.clear();
  sessionStorage.clear();
});

// The interface text and error catalogue in English, loaded once as the app does before its first render.
const { initI18n, loadErrorTexts, loadFeatureTexts } = await import('../i18n');
await initI18n('en');
await loadErrorTexts();
await loadFeatureTexts();
