/** Pure formatting helpers (SPEC §3, §9): sizes, dates, avatars, attachment kinds, quota, folder names. */

/** Units of formatFileSize by language; bytes take the plural the number asks for (1 byte, 2 байта, 5 байт). */
const sizeUnits = {
  en: { bytes: { one: 'byte', other: 'bytes' }, larger: ['KB', 'MB', 'GB', 'TB'] },
  ru: {
    bytes: { one: 'байт', few: 'байта', many: 'байт', other: 'байта' },
    larger: ['КБ', 'МБ', 'ГБ', 'ТБ'],
  },
} as const;

const sizeNumbers = new Map<string, Intl.NumberFormat>();
const sizePlurals = new Map<string, Intl.PluralRules>();

/**
 * A size for people (SPEC §9): bytes below 1 KB, then KB, MB, GB, TB with one decimal, base 1024, in the language
 * of `locale` (en or ru: '1.4 MB', '1,4 МБ'; '1 byte', '2 байта').
 */
export function formatFileSize(bytes: number, locale = 'en'): string {
  const language = locale.toLowerCase().startsWith('ru') ? 'ru' : 'en';
  const units = sizeUnits[language];
  let unit = 0;
  let value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  while (value >= 1024 && unit < units.larger.length) {
    value /= 1024;
    unit++;
  }
  let rounded = unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  // 1023.96 KB rounds to 1024 KB, which reads better as the next unit.
  if (rounded >= 1024 && unit < units.larger.length) {
    rounded = Math.round((rounded / 1024) * 10) / 10;
    unit++;
  }
  let numbers = sizeNumbers.get(language);
  if (!numbers) {
    numbers = new Intl.NumberFormat(language, {
      maximumFractionDigits: 1,
      useGrouping: false,
      numberingSystem: 'latn',
    });
    sizeNumbers.set(language, numbers);
  }
  if (unit > 0) return `${numbers.format(rounded)} ${units.larger[unit - 1]}`;
  let plurals = sizePlurals.get(language);
  if (!plurals) {
    plurals = new Intl.PluralRules(language);
    sizePlurals.set(language, plurals);
  }
  const forms: Partial<Record<Intl.LDMLPluralRule, string>> = units.bytes;
  return `${numbers.format(rounded)} ${forms[plurals.select(rounded)] ?? units.bytes.other}`;
}

export type DateInput = Date | string | number;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: string, timeZone: string | undefined, options: Intl.DateTimeFormatOptions) {
  const key = JSON.stringify([locale, timeZone ?? null, options]);
  let cached = formatters.get(key);
  if (!cached) {
    cached = new Intl.DateTimeFormat(locale, { ...options, timeZone, numberingSystem: 'latn' });
    formatters.set(key, cached);
  }
  return cached;
}

type Parts = Partial<Record<Intl.DateTimeFormatPartTypes, string>>;

function parts(
  date: Date,
  locale: string,
  timeZone: string | undefined,
  options: Intl.DateTimeFormatOptions,
) {
  const result: Parts = {};
  for (const part of formatter(locale, timeZone, options).formatToParts(date)) result[part.type] = part.value;
  return result;
}

interface CalendarDay {
  year: string;
  month: string;
  day: string;
}

const numericDay = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;

function calendarDay(date: Date, timeZone: string | undefined): CalendarDay {
  const { year = '', month = '', day = '' } = parts(date, 'en-US', timeZone, numericDay);
  return { year, month, day };
}

function toDate(input: DateInput): Date | null {
  const date = input instanceof Date ? input : new Date(input);
  return Number.isNaN(date.getTime()) ? null : date;
}

function time(date: Date, locale: string, timeZone: string | undefined, withSeconds: boolean): string {
  const { hour, minute, second } = parts(date, locale, timeZone, {
    hour: '2-digit',
    minute: '2-digit',
    second: withSeconds ? '2-digit' : undefined,
    hourCycle: 'h23',
  });
  return withSeconds ? `${hour}:${minute}:${second}` : `${hour}:${minute}`;
}

/** Day then month name in the locale's form for a date ('5 Mar', '5 мар.', '5 марта'). */
function dayAndMonth(date: Date, locale: string, timeZone: string | undefined, month: 'short' | 'long') {
  const { day, month: monthName } = parts(date, locale, timeZone, { day: 'numeric', month });
  return `${day} ${monthName}`;
}

/**
 * The date of a mail list row (SPEC §9), in the given time zone (the runtime's when omitted):
 * another year → '05/03/2024' ('05.03.2024' in Russian); another day this year → '5 Mar' / '5 мар.'; today → '09:07' (24-hour).
 * An invalid date gives ''.
 */
export function formatListDate(date: DateInput, now: DateInput, locale: string, timeZone?: string): string {
  const when = toDate(date);
  const today = toDate(now);
  if (!when || !today) return '';
  const day = calendarDay(when, timeZone);
  const current = calendarDay(today, timeZone);
  // dd/mm/yyyy (SPEC §9); Russian writes dates with dots.
  if (day.year !== current.year)
    return [day.day, day.month, day.year].join(locale.toLowerCase().startsWith('ru') ? '.' : '/');
  if (day.month !== current.month || day.day !== current.day)
    return dayAndMonth(when, locale, timeZone, 'short');
  return time(when, locale, timeZone, false);
}

/**
 * The date of an opened message: this year → '5 March, 09:07' / '5 марта, 09:07'; another year adds
 * the year and the seconds (SPEC §9) → '5 March 2024, 09:07:03'. An invalid date gives ''.
 */
export function formatFullDate(date: DateInput, now: DateInput, locale: string, timeZone?: string): string {
  const when = toDate(date);
  const today = toDate(now);
  if (!when || !today) return '';
  const { year } = calendarDay(when, timeZone);
  const dayMonth = dayAndMonth(when, locale, timeZone, 'long');
  if (year === calendarDay(today, timeZone).year)
    return `${dayMonth}, ${time(when, locale, timeZone, false)}`;
  return `${dayMonth} ${year}, ${time(when, locale, timeZone, true)}`;
}

const letterOrDigit = /[\p{L}\p{N}]/u;

function initialsOf(words: string[]): string | null {
  const cleaned = words.map((word) => [...word].filter((c) => letterOrDigit.test(c))).filter((w) => w.length);
  const first = cleaned[0];
  const last = cleaned[cleaned.length - 1];
  if (!first || !last) return null;
  if (cleaned.length > 1) return `${first[0]}${last[0]}`.toUpperCase();
  return first.length > 1 ? `${first[0]}${first[1]}`.toUpperCase() : null;
}

/**
 * Two uppercase letters for an avatar: the first letters of the first and last words of the name,
 * or the first two letters of a one-word name; failing that, the same taken from the email's local part
 * (words split on '.', '_', '-', '+'); failing that, 'NN'.
 */
export function avatarInitials(name: string | null | undefined, email: string | null | undefined): string {
  const trimmedName = (name ?? '').trim();
  const fromName = trimmedName.includes('@') ? null : initialsOf(trimmedName.split(/\s+/u));
  if (fromName) return fromName;
  const address = email?.trim() || (trimmedName.includes('@') ? trimmedName : '');
  const local = address.split('@')[0] ?? '';
  return initialsOf(local.split(/[._+\-\s]+/u)) ?? 'NN';
}

/** Avatar backgrounds; each gives white text a contrast of at least 4.5:1 (WCAG AA). */
export const AVATAR_COLORS = [
  '#c62828',
  '#ad1457',
  '#6a1b9a',
  '#4527a0',
  '#283593',
  '#1565c0',
  '#00695c',
  '#2e7d32',
  '#33691e',
  '#bf360c',
  '#4e342e',
  '#37474f',
] as const;

/** A colour from AVATAR_COLORS chosen by an FNV-1a hash of the trimmed, lowercased name or email. */
export function avatarColor(nameOrEmail: string): string {
  let hash = 0x811c9dc5;
  for (const char of nameOrEmail.trim().toLowerCase()) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return AVATAR_COLORS[hash % AVATAR_COLORS.length] ?? AVATAR_COLORS[0];
}

/** The quota bar width: used / limit in percent, clamped to 0..100 (0 for a missing or zero limit). */
export function quotaPercent(used: number, limit: number): number {
  if (!Number.isFinite(used) || !Number.isFinite(limit) || limit <= 0) return 0;
  return Math.min(100, Math.max(0, (used / limit) * 100));
}

/** The display name of a dotted folder path: its last non-empty segment ('INBOX.Work.2024' → '2024'). */
export function folderDisplayName(dottedName: string): string {
  const segments = dottedName.split('.').filter((segment) => segment !== '');
  return segments[segments.length - 1] ?? dottedName;
}

/** A folder whose dotted name contains '.import.' holds mail fetched by a collector (SPEC §3). */
export function isCollectorFolderName(name: string): boolean {
  return name.includes('.import.');
}
