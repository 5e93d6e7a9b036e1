import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

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
});

// The interface text and error catalogue in English, loaded once as the app does before its first render.
const { initI18n, loadErrorTexts, loadFeatureTexts } = await import('../i18n');
await initI18n('en');
await loadErrorTexts();
await loadFeatureTexts();
