import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect-language';

describe('detectLanguage', () => {
  it('lets the lang query parameter override the cookie and the browser', () => {
    expect(detectLanguage({ search: '?lang=ru', cookie: 'en', browser: 'en-US' })).toBe('ru');
  });

  it('uses the lang cookie when there is no query parameter', () => {
    expect(detectLanguage({ search: '', cookie: 'ru', browser: 'en-US' })).toBe('ru');
  });

  it('falls back to the first two letters of the browser language', () => {
    expect(detectLanguage({ search: '', cookie: null, browser: 'ru-RU' })).toBe('ru');
  });

  it('ignores unsupported values at every step and ends with English', () => {
    expect(detectLanguage({ search: '?lang=de', cookie: 'fr', browser: 'ru' })).toBe('ru');
    expect(detectLanguage({ search: '?lang=de', cookie: 'fr', browser: 'de-DE' })).toBe('en');
    expect(detectLanguage({ search: '', cookie: null, browser: undefined })).toBe('en');
  });
});
