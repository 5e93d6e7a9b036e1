/**
 * The snooze menu's times (issue 31), worked out in the browser's time zone and sent with its offset:
 * - Later today: three hours from now, rounded up to the next full hour; offered only while that is still today.
 * - Tomorrow: tomorrow at 08:00.
 * - Next week: the coming Monday at 08:00; on a Monday the Monday a week later, and on a Sunday too (the coming
 *   Monday is Tomorrow's day already).
 * - Pick a time…: any moment ahead (the server takes up to 366 days).
 */
export const MORNING_HOUR = 8;
const LATER_HOURS = 3;

export interface SnoozePresets {
  later: Date | null;
  tomorrow: Date;
  nextWeek: Date;
}

export function snoozePresets(now: Date): SnoozePresets {
  const later = new Date(now.getTime() + LATER_HOURS * 3_600_000);
  if (later.getMinutes() || later.getSeconds() || later.getMilliseconds())
    later.setHours(later.getHours() + 1, 0, 0, 0);
  const sameDay =
    later.getFullYear() === now.getFullYear() &&
    later.getMonth() === now.getMonth() &&
    later.getDate() === now.getDate();
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, MORNING_HOUR);
  // getDay: Sunday 0 … Saturday 6; days to the next Monday, 2 to 8 (never tomorrow's, which Tomorrow is).
  const toMonday = now.getDay() === 0 ? 8 : (8 - now.getDay()) % 7 || 7;
  const nextWeek = new Date(now.getFullYear(), now.getMonth(), now.getDate() + toMonday, MORNING_HOUR);
  return { later: sameDay ? later : null, tomorrow, nextWeek };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A moment as ISO 8601 in the browser's zone with its offset: `2026-12-01T09:00:00+03:00`. */
export function isoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** The value of a datetime-local input (`2026-12-01T09:00`) for a moment, in the browser's zone. */
export function localInputValue(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local input's value (seconds optional) read in the browser's zone; null when empty or not a date. */
export function fromLocalInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(year, month - 1, day, hour, minute, second);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The server's limit on how far ahead a snooze may go. */
export const SNOOZE_MAX_DAYS = 366;
