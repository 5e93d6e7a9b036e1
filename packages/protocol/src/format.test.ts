import { describe, it, expect } from 'vitest';
import { attachmentKind, withoutInvisibleFormatting } from './attachment-names.js';
import {
  AVATAR_COLORS,
  avatarColor,
  avatarInitials,
  folderDisplayName,
  formatFileSize,
  formatFullDate,
  formatListDate,
  isCollectorFolderName,
  quotaPercent,
} from './format.js';

describe('formatFileSize', () => {
  it('shows whole bytes below 1 KB, including 0, with the plural the number takes', () => {
    expect(formatFileSize(0)).toBe('0 bytes');
    expect(formatFileSize(1)).toBe('1 byte');
    expect(formatFileSize(2)).toBe('2 bytes');
    expect(formatFileSize(1023)).toBe('1023 bytes');
  });

  it('uses base 1024 and drops a trailing .0: 1024 is 1 KB', () => {
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1 MB');
    expect(formatFileSize(1024 ** 3)).toBe('1 GB');
    expect(formatFileSize(1024 ** 4)).toBe('1 TB');
  });

  it('shows one decimal when there is one', () => {
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1100)).toBe('1.1 KB');
    expect(formatFileSize(50 * 1024 * 1024 - 1)).toBe('50 MB');
    expect(formatFileSize(2.25 * 1024 ** 3)).toBe('2.3 GB');
  });

  it('moves to the next unit when rounding reaches 1024', () => {
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatFileSize(1023.96 * 1024)).toBe('1 MB');
  });

  it('stays in TB beyond 1024 TB', () => {
    expect(formatFileSize(2048 * 1024 ** 4)).toBe('2048 TB');
  });

  it('reads negative, NaN and infinite sizes as 0', () => {
    expect(formatFileSize(-5)).toBe('0 bytes');
    expect(formatFileSize(Number.NaN)).toBe('0 bytes');
    expect(formatFileSize(Number.POSITIVE_INFINITY)).toBe('0 bytes');
  });

  it('speaks Russian: Russian units, a decimal comma and the plural of байт', () => {
    expect(formatFileSize(1.4 * 1024 * 1024, 'ru')).toBe('1,4 МБ');
    expect(formatFileSize(1536, 'ru')).toBe('1,5 КБ');
    expect(formatFileSize(1024 ** 3, 'ru')).toBe('1 ГБ');
    expect(formatFileSize(3 * 1024 ** 4, 'ru')).toBe('3 ТБ');
    expect(formatFileSize(0, 'ru')).toBe('0 байт');
    expect(formatFileSize(1, 'ru')).toBe('1 байт');
    expect(formatFileSize(2, 'ru')).toBe('2 байта');
    expect(formatFileSize(5, 'ru')).toBe('5 байт');
    expect(formatFileSize(21, 'ru')).toBe('21 байт');
    expect(formatFileSize(22, 'ru')).toBe('22 байта');
    expect(formatFileSize(1000, 'ru')).toBe('1000 байт');
  });

  it('never says "1 Bytes" in either language', () => {
    for (const locale of ['en', 'ru'])
      for (let bytes = 0; bytes < 1024; bytes++) expect(formatFileSize(bytes, locale)).not.toMatch(/Bytes/);
  });
});

describe('formatListDate', () => {
  const now = new Date('2025-06-15T12:00:00Z');

  it('shows dd/mm/yyyy for a date of an earlier year, dd.MM.yyyy in Russian', () => {
    expect(formatListDate('2024-03-05T09:07:03Z', now, 'en', 'UTC')).toBe('05/03/2024');
    expect(formatListDate('2024-12-31T23:59:59Z', now, 'ru', 'UTC')).toBe('31.12.2024');
    expect(formatListDate('2024-03-05T09:07:03Z', now, 'ru-RU', 'UTC')).toBe('05.03.2024');
  });

  it('shows day and short month for an earlier day this year', () => {
    expect(formatListDate('2025-03-05T09:07:03Z', now, 'en', 'UTC')).toBe('5 Mar');
    expect(formatListDate('2025-03-05T09:07:03Z', now, 'ru', 'UTC')).toBe('5 мар.');
    expect(formatListDate('2025-06-14T23:59:59Z', now, 'en', 'UTC')).toBe('14 Jun');
  });

  it('shows HH:mm in 24-hour time for today', () => {
    expect(formatListDate('2025-06-15T09:07:03Z', now, 'en', 'UTC')).toBe('09:07');
    expect(formatListDate('2025-06-15T00:00:00Z', now, 'ru', 'UTC')).toBe('00:00');
    expect(formatListDate('2025-06-15T23:30:00Z', now, 'en', 'UTC')).toBe('23:30');
  });

  it('decides today and the year in the given time zone', () => {
    // 23:30 UTC on 15 June is 02:30 on 16 June in Moscow, where it is then still 15 June 15:00.
    expect(formatListDate('2025-06-15T23:30:00Z', now, 'en', 'Europe/Moscow')).toBe('16 Jun');
    expect(formatListDate('2024-12-31T22:00:00Z', '2025-01-01T10:00:00Z', 'en', 'Europe/Moscow')).toBe(
      '01:00',
    );
  });

  it('accepts dates, ISO strings and epoch milliseconds', () => {
    const when = Date.UTC(2025, 2, 5, 9, 7, 3);
    expect(formatListDate(when, now.getTime(), 'en', 'UTC')).toBe('5 Mar');
    expect(formatListDate(new Date(when), now, 'en', 'UTC')).toBe('5 Mar');
  });

  it('gives an empty string for an invalid date', () => {
    expect(formatListDate('not a date', now, 'en', 'UTC')).toBe('');
  });
});

describe('formatFullDate', () => {
  const now = new Date('2025-06-15T12:00:00Z');

  it('shows day, month and time without seconds this year', () => {
    expect(formatFullDate('2025-03-05T09:07:03Z', now, 'en', 'UTC')).toBe('5 March, 09:07');
    expect(formatFullDate('2025-03-05T09:07:03Z', now, 'ru', 'UTC')).toBe('5 марта, 09:07');
    expect(formatFullDate('2025-06-15T18:45:00Z', now, 'en', 'UTC')).toBe('15 June, 18:45');
  });

  it('adds the year and the seconds for a date of an earlier year', () => {
    expect(formatFullDate('2024-03-05T09:07:03Z', now, 'en', 'UTC')).toBe('5 March 2024, 09:07:03');
    expect(formatFullDate('2024-03-05T09:07:03Z', now, 'ru', 'UTC')).toBe('5 марта 2024, 09:07:03');
  });

  it('gives an empty string for an invalid date', () => {
    expect(formatFullDate(Number.NaN, now, 'en', 'UTC')).toBe('');
  });
});

describe('avatarInitials', () => {
  it('takes the first letters of the first and last words of the name', () => {
    expect(avatarInitials('Ivan Petrov', 'ivan@example.com')).toBe('IP');
    expect(avatarInitials('john ronald tolkien', null)).toBe('JT');
    expect(avatarInitials('  анна   смирнова ', null)).toBe('АС');
  });

  it('takes the first two letters of a one-word name', () => {
    expect(avatarInitials('Madonna', null)).toBe('MA');
  });

  it('ignores punctuation around words', () => {
    expect(avatarInitials('"Doe, John"', null)).toBe('DJ');
  });

  it('falls back to the local part of the email', () => {
    expect(avatarInitials('', 'john.doe@example.com')).toBe('JD');
    expect(avatarInitials(null, 'support@example.com')).toBe('SU');
    expect(avatarInitials('john.doe@example.com', undefined)).toBe('JD');
  });

  it('falls back to NN when neither gives two letters', () => {
    expect(avatarInitials('', '')).toBe('NN');
    expect(avatarInitials(undefined, undefined)).toBe('NN');
    expect(avatarInitials('???', 'x@example.com')).toBe('NN');
  });
});

/** WCAG 2 contrast ratio between a colour and white. */
function contrastWithWhite(hex: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r = 0, g = 0, b = 0] = channels.map((c) =>
    c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
  );
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return 1.05 / (luminance + 0.05);
}

describe('avatarColor', () => {
  it('gives white text a contrast of at least 4.5:1 on every colour of the palette', () => {
    expect(AVATAR_COLORS.length).toBeGreaterThanOrEqual(12);
    for (const color of AVATAR_COLORS) expect(contrastWithWhite(color), color).toBeGreaterThanOrEqual(4.5);
  });

  it('is stable for the same name, whatever its case or surrounding spaces', () => {
    expect(avatarColor('ivan@example.com')).toBe(avatarColor('ivan@example.com'));
    expect(avatarColor(' Ivan@Example.com ')).toBe(avatarColor('ivan@example.com'));
  });

  it('spreads different names over the palette', () => {
    const colors = new Set(Array.from({ length: 200 }, (_, i) => avatarColor(`user${i}@example.com`)));
    expect(colors.size).toBe(AVATAR_COLORS.length);
    for (const color of colors) expect(AVATAR_COLORS).toContain(color);
  });

  it('gives a palette colour for an empty string', () => {
    expect(AVATAR_COLORS).toContain(avatarColor(''));
  });
});

describe('attachmentKind', () => {
  it('maps every extension of SPEC §3 to its kind', () => {
    const cases = {
      pdf: ['pdf'],
      doc: ['docx', 'txt', 'odt', 'tex', 'rtf'],
      audio: ['mp3', 'wav', 'flac', 'aac', 'aa'],
      xls: ['xlsx', 'xlsm', 'xlsb'],
      video: ['mkv', 'flv', 'avi', 'mp4'],
      archive: ['zip', 'zipx', 'rar', '7z', 'tar'],
      img: ['jpg', 'png', 'apng', 'avif', 'gif', 'jpeg', 'jfif', 'pjpeg', 'pjp', 'svg', 'webp'],
    };
    for (const [kind, extensions] of Object.entries(cases)) {
      for (const extension of extensions) expect(attachmentKind(`file.${extension}`), extension).toBe(kind);
    }
  });

  it('reads doc and xls themselves as their kinds', () => {
    expect(attachmentKind('letter.doc')).toBe('doc');
    expect(attachmentKind('table.xls')).toBe('xls');
  });

  it('ignores the case of the extension', () => {
    expect(attachmentKind('SCAN.PDF')).toBe('pdf');
    expect(attachmentKind('Photo.JpEg')).toBe('img');
  });

  it('uses the extension after the last dot', () => {
    expect(attachmentKind('report.pdf.zip')).toBe('archive');
    expect(attachmentKind('backup.tar.gz')).toBe('other');
  });

  it('gives other for unknown or missing extensions', () => {
    expect(attachmentKind('setup.exe')).toBe('other');
    expect(attachmentKind('README')).toBe('other');
    expect(attachmentKind('file.')).toBe('other');
    expect(attachmentKind('')).toBe('other');
  });
});

describe('quotaPercent', () => {
  it('gives used over limit in percent', () => {
    expect(quotaPercent(0, 1024)).toBe(0);
    expect(quotaPercent(256, 1024)).toBe(25);
    expect(quotaPercent(1024, 1024)).toBe(100);
  });

  it('clamps to 0..100', () => {
    expect(quotaPercent(2048, 1024)).toBe(100);
    expect(quotaPercent(-10, 1024)).toBe(0);
  });

  it('gives 0 for a zero, negative or missing limit', () => {
    expect(quotaPercent(10, 0)).toBe(0);
    expect(quotaPercent(10, -1)).toBe(0);
    expect(quotaPercent(Number.NaN, 100)).toBe(0);
  });
});

describe('folder names', () => {
  it('shows the last dotted segment', () => {
    expect(folderDisplayName('INBOX.Junk')).toBe('Junk');
    expect(folderDisplayName('INBOX.Work.2024')).toBe('2024');
    expect(folderDisplayName('INBOX')).toBe('INBOX');
    expect(folderDisplayName('INBOX.Trash.')).toBe('Trash');
  });

  it("treats a name containing '.import.' as a collector folder", () => {
    expect(isCollectorFolderName('INBOX.import.user@example.com')).toBe(true);
    expect(isCollectorFolderName('INBOX.import.box.Sent')).toBe(true);
    expect(isCollectorFolderName('INBOX.Imports')).toBe(false);
    expect(isCollectorFolderName('import.x')).toBe(false);
  });
});

describe('withoutInvisibleFormatting', () => {
  it('drops bidi overrides, isolates, marks, soft hyphens and BOMs, and keeps joiners', () => {
    expect(withoutInvisibleFormatting('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(withoutInvisibleFormatting('a\u2066b\u2069\u200Fc\u00ADd\uFEFF\u200Be')).toBe('abcde');
    expect(withoutInvisibleFormatting('👩\u200D💻 отчёт')).toBe('👩\u200D💻 отчёт');
  });
});
