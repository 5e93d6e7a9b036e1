import { formatFullDate } from '@mailroom/protocol';

/** The hour "morning" presets send at, in the browser's time zone. */
export const MORNING_HOUR = 8;

/** Days a follow-up reminder may be asked for in compose (0: none). */
export const REMIND_CHOICES = [0, 1, 2, 3, 7] as const;

/** Tomorrow at 08:00, local time. */
export function tomorrowMorning(now: Date): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, MORNING_HOUR, 0, 0, 0);
}

/** The next Monday at 08:00, local time (a week ahead on a Monday). */
export function mondayMorning(now: Date): Date {
  const days = (8 - now.getDay()) % 7 || 7;
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, MORNING_HOUR, 0, 0, 0);
}

const pad = (value: number) => String(Math.trunc(Math.abs(value))).padStart(2, '0');

/** ISO 8601 in the browser's time zone with its offset (2026-11-30T08:00:00+03:00): what send_at takes. */
export function isoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

/** A datetime-local input's value ('2026-11-30T08:00') as a local time; null when empty or not a time. */
export function fromLocalInput(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(year!, month! - 1, day!, hour!, minute!, second!);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A local time as a datetime-local input's value. */
export function toLocalInput(date: Date): string {
  return isoWithOffset(date).slice(0, 16);
}

/** When a scheduled send goes, for the member: date and time in the browser's zone. */
export function formatSendTime(sendAt: string, locale: string, now = new Date()): string {
  return formatFullDate(sendAt, now, locale);
}
