import { describe, it, expect } from 'vitest';
import { isEmail, isMemberId, isSafeRedirectPath, safeRedirectPath, splitRecipients } from './validation.js';
import { ALIAS_STOPLIST, validateAliasName } from './alias-name.js';
import { generateEncryptionPassword, validateEncryptionPassword } from './encryption-password.js';
import { isErrorCode } from './errors.js';

describe('isMemberId', () => {
  it('accepts exactly 12 digits', () => {
    expect(isMemberId('123456789012')).toBe(true);
    expect(isMemberId('000000000000')).toBe(true);
  });

  it('refuses 11 or 13 digits, letters, spaces, non-ASCII digits and non-strings', () => {
    for (const value of ['12345678901', '1234567890123', 'a23456789012', ' 123456789012', '12345678901\n']) {
      expect(isMemberId(value), value).toBe(false);
    }
    expect(isMemberId('١٢٣٤٥٦٧٨٩٠١٢')).toBe(false);
    expect(isMemberId(123456789012)).toBe(false);
    expect(isMemberId(null)).toBe(false);
  });
});

describe('isEmail', () => {
  it('accepts ordinary addresses, subdomains, plus tags and IDN domains', () => {
    for (const value of [
      'user@example.com',
      'first.last+tag@mail.example.co.uk',
      'USER_1-x@Example.COM',
      'иван@почта.рф',
      'a@xn--80ak6aa92e.com',
      'user@xn--p1ai.xn--p1ai',
    ]) {
      expect(isEmail(value), value).toBe(true);
    }
  });

  it('refuses an address without @, without a local part or without a dotted domain', () => {
    for (const value of [
      'user',
      'user.example.com',
      '@example.com',
      'user@',
      'user@localhost',
      'user@.com',
    ]) {
      expect(isEmail(value), value).toBe(false);
    }
  });

  it('refuses two @ signs, spaces, CR and LF anywhere', () => {
    for (const value of [
      'a@b@example.com',
      'us er@example.com',
      ' user@example.com',
      'user@example.com ',
      'user@exa mple.com',
      'user@example.com\r\nBcc: x@evil.example',
      'user\n@example.com',
      'user@example.com\t',
    ]) {
      expect(isEmail(value), JSON.stringify(value)).toBe(false);
    }
  });

  it('refuses malformed domains and local parts', () => {
    for (const value of [
      'user@example.c',
      'user@example.123',
      'user@-example.com',
      'user@example-.com',
      'user@exa_mple.com',
      'user@example..com',
      'user@example.com.',
      '.user@example.com',
      'user.@example.com',
      'us..er@example.com',
      '<user@example.com>',
      'user,x@example.com',
      '"user"@example.com',
    ]) {
      expect(isEmail(value), value).toBe(false);
    }
  });

  it('refuses a local part over 64 characters and an address over 254', () => {
    expect(isEmail(`${'a'.repeat(64)}@example.com`)).toBe(true);
    expect(isEmail(`${'a'.repeat(65)}@example.com`)).toBe(false);
    const longDomain = `${Array.from({ length: 4 }, () => 'd'.repeat(62)).join('.')}.com`;
    expect(isEmail(`a@${longDomain}`)).toBe(false);
  });

  it('refuses non-strings', () => {
    expect(isEmail(undefined)).toBe(false);
    expect(isEmail(42)).toBe(false);
  });
});

describe('validateAliasName', () => {
  it('accepts a name of 3 to 30 letters, digits, dots, dashes and underscores', () => {
    for (const name of ['abc', 'a'.repeat(30), 'john.doe', 'john_doe-2024', 'Shop', '12345678901']) {
      expect(validateAliasName(name), name).toBeNull();
    }
  });

  it('refuses fewer than 3 or more than 30 characters with specify_3_30', () => {
    expect(validateAliasName('')).toBe('specify_3_30');
    expect(validateAliasName('ab')).toBe('specify_3_30');
    expect(validateAliasName('a'.repeat(31))).toBe('specify_3_30');
  });

  it('a 12-digit alias is refused with invalid_alias_member_id', () => {
    expect(validateAliasName('123456789012')).toBe('invalid_alias_member_id');
  });

  it('a letter followed by 12 digits is refused with invalid_alias_purse, in either case', () => {
    expect(validateAliasName('Z123456789012')).toBe('invalid_alias_purse');
    expect(validateAliasName('e123456789012')).toBe('invalid_alias_purse');
  });

  it("without the stop list (a member's own domain) a stopped name passes, the other rules still hold", () => {
    expect(validateAliasName('sales')).toBe('alias_stoplist');
    expect(validateAliasName('sales', { stopList: false })).toBeNull();
    expect(validateAliasName('123456789012', { stopList: false })).toBe('invalid_alias_member_id');
    expect(validateAliasName('bad name', { stopList: false })).toBe('invalid_alias');
  });

  it('names close to those patterns are allowed', () => {
    expect(validateAliasName('1234567890123')).toBeNull();
    expect(validateAliasName('ab123456789012')).toBeNull();
    expect(validateAliasName('z12345678901')).toBeNull();
  });

  it('every stop-list name is refused with alias_stoplist, whatever its case', () => {
    for (const name of ALIAS_STOPLIST) {
      expect(validateAliasName(name), name).toBe('alias_stoplist');
      expect(validateAliasName(name.toUpperCase()), name).toBe('alias_stoplist');
    }
  });

  it('the stop list holds the role addresses of SPEC §5', () => {
    expect(ALIAS_STOPLIST).toEqual(
      expect.arrayContaining([
        'admin',
        'postmaster',
        'root',
        'abuse',
        'support',
        'noreply',
        'no-reply',
        'hostmaster',
        'webmaster',
        'mailer-daemon',
        'security',
        'billing',
        'info',
      ]),
    );
  });

  it("the stop list holds the product's own names and system account names", () => {
    for (const name of ['mailroom', 'wallet', 'daemon', 'nobody', 'mail', 'www', 'help', 'system']) {
      expect(ALIAS_STOPLIST, name).toContain(name);
      expect(validateAliasName(name), name).toBe('alias_stoplist');
    }
  });

  it('a stop-list name written with other separators or case is refused too', () => {
    for (const name of [
      'No.Reply',
      'mailer_daemon',
      'post-master',
      'Mail.Room',
      'web_master',
      'do.not.reply',
    ]) {
      expect(validateAliasName(name), name).toBe('alias_stoplist');
    }
  });

  it('a name that only contains a stop-list name is allowed', () => {
    for (const name of ['mailroom-fan', 'helpful', 'rooted', 'ann.mail', 'wallets4u']) {
      expect(validateAliasName(name), name).toBeNull();
    }
  });

  it('refuses characters an address cannot carry with invalid_alias', () => {
    for (const name of [
      'john doe',
      'john@doe',
      '.john',
      'john.',
      'jo..hn',
      '-john',
      'иван',
      'john+1',
      'a\nb',
    ]) {
      expect(validateAliasName(name), name).toBe('invalid_alias');
    }
  });

  it('only returns codes of the error registry', () => {
    for (const name of ['ab', '123456789012', 'a123456789012', 'admin', 'a b c']) {
      expect(isErrorCode(validateAliasName(name))).toBe(true);
    }
  });
});

describe('splitRecipients', () => {
  it('splits on spaces, commas and semicolons and keeps valid addresses in order', () => {
    expect(splitRecipients('a@example.com, b@example.com;c@example.com  d@example.com\n')).toEqual({
      valid: ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'],
      invalid: [],
    });
  });

  it('keeps invalid pieces as typed so the field can flag them', () => {
    expect(splitRecipients('a@example.com, bob, c@localhost')).toEqual({
      valid: ['a@example.com'],
      invalid: ['bob', 'c@localhost'],
    });
  });

  it('unwraps an address in angle brackets', () => {
    expect(splitRecipients('<a@example.com>')).toEqual({ valid: ['a@example.com'], invalid: [] });
  });

  it('keeps a repeated address once, comparing case-insensitively', () => {
    expect(splitRecipients('a@example.com A@Example.com a@example.com').valid).toEqual(['a@example.com']);
  });

  it('returns nothing for empty or separator-only text', () => {
    expect(splitRecipients('')).toEqual({ valid: [], invalid: [] });
    expect(splitRecipients(' ,; \t')).toEqual({ valid: [], invalid: [] });
  });
});

describe('encryption password', () => {
  it('accepts 3 to 20 characters and refuses shorter or longer ones', () => {
    expect(validateEncryptionPassword('abc')).toBe(true);
    expect(validateEncryptionPassword('x'.repeat(20))).toBe(true);
    expect(validateEncryptionPassword('ab')).toBe(false);
    expect(validateEncryptionPassword('')).toBe(false);
    expect(validateEncryptionPassword('x'.repeat(21))).toBe(false);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(validateEncryptionPassword('😀😀😀')).toBe(true);
    expect(validateEncryptionPassword('😀'.repeat(20))).toBe(true);
  });

  it('generates a valid 20-character password of letters and digits, different each time', () => {
    const first = generateEncryptionPassword();
    expect(first).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(validateEncryptionPassword(first)).toBe(true);
    expect(generateEncryptionPassword()).not.toBe(first);
    expect(generateEncryptionPassword(5)).toHaveLength(5);
  });
});

describe('isSafeRedirectPath', () => {
  it('accepts same-origin paths with queries and fragments', () => {
    for (const path of [
      '/',
      '/mail',
      '/mail/INBOX/42',
      '/mail/search?q=hello&page=2#top',
      '/mail/search?q=a%20b',
      '/mail/search?q=100%25',
      '/mail/%D0%9F%D0%B0%D0%BF%D0%BA%D0%B0',
      '/contacts/../mail',
    ]) {
      expect(isSafeRedirectPath(path), path).toBe(true);
    }
  });

  it('refuses protocol-relative and backslash forms', () => {
    for (const path of [
      '//evil.example',
      '///evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      '/\\/evil',
    ]) {
      expect(isSafeRedirectPath(path), path).toBe(false);
    }
  });

  it('refuses characters outside printable ASCII, look-alike slashes and dots among them', () => {
    for (const path of [
      '/\u3002evil.example',
      '/\u2215\u2215evil.example',
      '/\uff0f\uff0fevil.example',
      '/mail/Папка',
    ])
      expect(isSafeRedirectPath(path), path).toBe(false);
  });

  it('refuses a backslash anywhere', () => {
    expect(isSafeRedirectPath('/mail\\evil')).toBe(false);
  });

  it('refuses schemes and absolute URLs', () => {
    for (const path of [
      'https:evil.example',
      'https://evil.example/mail',
      'http://evil.example',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'mail',
      '',
    ]) {
      expect(isSafeRedirectPath(path), path).toBe(false);
    }
  });

  it('refuses control characters and whitespace that browsers strip or trim', () => {
    for (const path of [
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      ' //evil.example',
      '/mail ',
    ]) {
      expect(isSafeRedirectPath(path), JSON.stringify(path)).toBe(false);
    }
    expect(isSafeRedirectPath('/mail\u0000')).toBe(false);
    expect(isSafeRedirectPath('/mail\u007f')).toBe(false);
    expect(isSafeRedirectPath('/mail\u2028x')).toBe(false);
  });

  it('refuses encoded slashes and backslashes that decode to another host', () => {
    for (const path of [
      '/%2F%2Fevil.example',
      '/%2f%2fevil.example',
      '/%2Fevil.example',
      '/%5Cevil.example',
      '/%5cevil.example',
      '%2F%2Fevil',
      '%2F%2Fevil.example',
      '%5C%5Cevil.example',
    ]) {
      expect(isSafeRedirectPath(path), path).toBe(false);
    }
  });

  it('decodes repeatedly, so double- and triple-encoded forms are refused too', () => {
    for (const path of ['/%252F%252Fevil.example', '/%25252F%25252Fevil.example', '/%255Cevil.example']) {
      expect(isSafeRedirectPath(path), path).toBe(false);
    }
  });

  it('refuses encoded control characters and encoded schemes', () => {
    for (const path of ['/%09/evil.example', '/%0A/evil.example', '/mail%00', '%6Aavascript:alert(1)']) {
      expect(isSafeRedirectPath(path), path).toBe(false);
    }
  });

  it('refuses dot segments that normalise to a protocol-relative path', () => {
    expect(isSafeRedirectPath('/..//evil.example')).toBe(false);
    expect(isSafeRedirectPath('/.//evil.example')).toBe(false);
    expect(isSafeRedirectPath('/%2E%2E//evil.example')).toBe(false);
  });

  it('refuses non-strings and paths over 2000 characters', () => {
    expect(isSafeRedirectPath(undefined)).toBe(false);
    expect(isSafeRedirectPath(['/mail'])).toBe(false);
    expect(isSafeRedirectPath(`/${'a'.repeat(2000)}`)).toBe(false);
  });
});

describe('safeRedirectPath', () => {
  it('returns a safe path unchanged, without decoding it', () => {
    expect(safeRedirectPath('/mail/search?q=a%20b')).toBe('/mail/search?q=a%20b');
  });

  it('falls back to /mail, or to the given fallback, for a hostile path', () => {
    expect(safeRedirectPath('//evil.example')).toBe('/mail');
    expect(safeRedirectPath('/%2F%2Fevil.example', '/login')).toBe('/login');
    expect(safeRedirectPath(undefined)).toBe('/mail');
  });
});
