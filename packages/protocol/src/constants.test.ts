import { describe, it, expect } from 'vitest';
import {
  ACCESS_RECHECK_MS,
  ALIAS_NAME_MAX_LENGTH,
  ALIAS_NAME_MIN_LENGTH,
  ATTACHMENTS_TOTAL_LIMIT_BYTES,
  ATTACHMENTS_TOTAL_LIMIT_MB,
  AUTOSAVE_MS,
  BANNER_MS,
  CHUNK_LOAD_TIMEOUT_MS,
  COMPOSE_MODE,
  CONTACTS_ROUTE_LIMIT,
  CONTACT_SEARCH_PAGE_SIZE,
  COPIED_MS,
  DEFAULT_LABEL_COLOR,
  DEFAULT_LABEL_SEARCH_FIELD,
  DEFAULT_LANGUAGE,
  DESKTOP_SPLIT_MIN,
  DOUBLE_CLICK_MS,
  ENCRYPTION_PASSWORD_GENERATED_LENGTH,
  ENCRYPTION_PASSWORD_MAX_LENGTH,
  ENCRYPTION_PASSWORD_MIN_LENGTH,
  FILES_QUOTA_BYTES,
  IS_LOGGED_COOKIE,
  LABEL_SEARCH_FIELDS,
  LANG_COOKIE,
  LIST_PAGE_SIZE,
  LIST_READER_SPLIT,
  MAIL_QUOTA_BYTES,
  MEMBER_ID_LENGTH,
  MOBILE_MAX,
  RECIPIENT_TAGS_SHOWN,
  REDIRECT_COOKIE,
  REDIRECT_COOKIE_MAX_AGE_S,
  SEARCH_PAGE_SIZE,
  SIGNATURE_SEPARATOR,
  SPLITTER_DEFAULT,
  SPLITTER_MIN_WIDTHS,
  SUPPORTED_LANGUAGES,
  WS_MAX_TRIES,
  WS_RETRY_AFTER_CLOSE_MS,
  WS_RETRY_AFTER_ERROR_MS,
  WS_TOAST_AT_RECONNECTS,
} from './constants.js';
import { defaultSettings } from './schemas/user.js';

describe('business constants (SPEC §9)', () => {
  it('pages lists by 30, searches by 20, contact searches by 1000 and the contacts route by 100', () => {
    expect([LIST_PAGE_SIZE, SEARCH_PAGE_SIZE, CONTACT_SEARCH_PAGE_SIZE, CONTACTS_ROUTE_LIMIT]).toEqual([
      30, 20, 1000, 100,
    ]);
  });

  it('the default per_page setting is the list page size', () => {
    expect(defaultSettings.per_page).toBe(LIST_PAGE_SIZE);
  });

  it('limits attachments to 50 MiB in total, mail to 1 GiB and files to 40 GiB', () => {
    expect(ATTACHMENTS_TOTAL_LIMIT_BYTES).toBe(52_428_800);
    expect(ATTACHMENTS_TOTAL_LIMIT_BYTES).toBe(ATTACHMENTS_TOTAL_LIMIT_MB * 1024 * 1024);
    expect(MAIL_QUOTA_BYTES).toBe(1_073_741_824);
    expect(FILES_QUOTA_BYTES).toBe(42_949_672_960);
  });

  it('allows alias names of 3 to 30 characters and encryption passwords of 3 to 20, generating 20', () => {
    expect([ALIAS_NAME_MIN_LENGTH, ALIAS_NAME_MAX_LENGTH]).toEqual([3, 30]);
    expect([ENCRYPTION_PASSWORD_MIN_LENGTH, ENCRYPTION_PASSWORD_MAX_LENGTH]).toEqual([3, 20]);
    expect(ENCRYPTION_PASSWORD_GENERATED_LENGTH).toBe(ENCRYPTION_PASSWORD_MAX_LENGTH);
    expect(MEMBER_ID_LENGTH).toBe(12);
  });

  it('keeps every timing in milliseconds except the redirect cookie age in seconds', () => {
    expect({
      AUTOSAVE_MS,
      ACCESS_RECHECK_MS,
      DOUBLE_CLICK_MS,
      BANNER_MS,
      COPIED_MS,
      REDIRECT_COOKIE_MAX_AGE_S,
      CHUNK_LOAD_TIMEOUT_MS,
    }).toEqual({
      AUTOSAVE_MS: 30_000,
      ACCESS_RECHECK_MS: 30_000,
      DOUBLE_CLICK_MS: 350,
      BANNER_MS: 4_000,
      COPIED_MS: 1_500,
      REDIRECT_COOKIE_MAX_AGE_S: 72_000,
      CHUNK_LOAD_TIMEOUT_MS: 120_000,
    });
  });

  it('shows the reconnect toast at 3 reconnects and retries 1 s after close, 5 s after error, 10 times', () => {
    expect([WS_TOAST_AT_RECONNECTS, WS_RETRY_AFTER_CLOSE_MS, WS_RETRY_AFTER_ERROR_MS, WS_MAX_TRIES]).toEqual([
      3, 1_000, 5_000, 10,
    ]);
    expect(WS_TOAST_AT_RECONNECTS).toBeLessThan(WS_MAX_TRIES);
  });

  it('splits list and reader 40/60 and orders the breakpoints mobile < split < list-reader', () => {
    expect(SPLITTER_DEFAULT).toEqual([40, 60]);
    expect(SPLITTER_DEFAULT[0] + SPLITTER_DEFAULT[1]).toBe(100);
    expect(SPLITTER_MIN_WIDTHS).toEqual([370, 400]);
    expect(MOBILE_MAX).toBeLessThan(DESKTOP_SPLIT_MIN);
    expect(DESKTOP_SPLIT_MIN).toBeLessThan(LIST_READER_SPLIT);
    expect(RECIPIENT_TAGS_SHOWN).toBe(2);
  });

  it('supports en and ru with en as the default language', () => {
    expect(SUPPORTED_LANGUAGES).toEqual(['en', 'ru']);
    expect(SUPPORTED_LANGUAGES).toContain(DEFAULT_LANGUAGE);
    expect(DEFAULT_LANGUAGE).toBe('en');
  });

  it('gives labels the colour #e66465 and the body search field by default', () => {
    expect(DEFAULT_LABEL_COLOR).toBe('#e66465');
    expect(LABEL_SEARCH_FIELDS).toEqual(['subject', 'body', 'from', 'to']);
    expect(DEFAULT_LABEL_SEARCH_FIELD).toBe('body');
  });

  it('numbers compose modes 0 new, 1 reply, 2 reply all, 3 forward and separates signatures with ---', () => {
    expect(COMPOSE_MODE).toEqual({ NEW: 0, REPLY: 1, REPLY_ALL: 2, FORWARD: 3 });
    expect(SIGNATURE_SEPARATOR).toBe('---');
  });

  it('names the cookies lang, redirect and isLogged', () => {
    expect([LANG_COOKIE, REDIRECT_COOKIE, IS_LOGGED_COOKIE]).toEqual(['lang', 'redirect', 'isLogged']);
  });
});
