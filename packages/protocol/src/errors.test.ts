import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { errorBody, errorCatalogue, errorCodes, errorStatus, isErrorCode } from './errors.js';

function locale(language: 'en' | 'ru'): Record<string, string> {
  const file = new URL(`../../../apps/web/src/i18n/locales/errors.${language}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
}

describe('error registry', () => {
  it('gives every code an HTTP error status between 400 and 599', () => {
    for (const code of errorCodes) {
      const status = errorStatus(code);
      expect(Number.isInteger(status), code).toBe(true);
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThanOrEqual(599);
    }
  });

  it('answers 401 only for a session or a sign-in problem, on which the web client signs in again', () => {
    const unauthorized = errorCodes.filter((code) => errorStatus(code) === 401).sort();
    // A 401 elsewhere (an unknown member ID once) made the app drop the form and bounce through /login.
    expect(unauthorized).toEqual([
      'auth_error',
      'expected_token',
      'incorrect_login_or_password',
      'invalid_auth_cookie',
      'invalid_token',
    ]);
  });

  it('names every code in snake_case', () => {
    for (const code of errorCodes) expect(code).toMatch(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/);
  });

  it('gives every code a non-empty English message', () => {
    for (const code of errorCodes) expect(errorCatalogue[code][1].trim(), code).not.toBe('');
  });

  it('puts the status in meta.code and the code in meta.i8s of the error body', () => {
    expect(errorBody('message_not_found')).toEqual({
      error: { message: 'Message not found', meta: { code: 404, i8s: 'message_not_found' } },
    });
    expect(isErrorCode('message_not_found')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});

describe('error translations of the web client', () => {
  it.each(['en', 'ru'] as const)(
    '%s translates exactly the codes of the registry, none empty',
    (language) => {
      const texts = locale(language);
      expect(Object.keys(texts).sort()).toEqual([...errorCodes].sort());
      for (const code of errorCodes) expect(texts[code]?.trim(), code).toBeTruthy();
    },
  );

  it('interpolates the limit into max_limit_reached in both languages', () => {
    expect(locale('en').max_limit_reached).toBe('Max limit reached: {{limit}}Mb');
    expect(locale('ru').max_limit_reached).toContain('{{limit}}');
  });
});
