import type { VcardProperty } from '../core/db/index.js';

/** One person read from an import file (a vCard or a CSV row), before it is matched against the address book. */
export interface ImportEntry {
  /** Its place in the file, from 1 (a vCard's card, a CSV's row after the header). */
  entry: number;
  name: string;
  surname: string;
  /** As written, the primary first; not yet checked. */
  emails: string[];
  phone: string;
  /** YYYY-MM-DD or null. */
  birthday: string | null;
  notes: string;
  /** Group names (CATEGORIES, a CSV's groups). */
  groups: string[];
  /** vCard properties the address book keeps but does not show (jCard, vCard 4.0 value types). */
  properties: VcardProperty[];
  /** Its UID, lowercased and without `urn:uuid:`, for a group card's MEMBER; null without one. */
  uid: string | null;
}

/** A group card (vCard 4.0 KIND:group, Apple's X-ADDRESSBOOKSERVER-KIND:group): a name and its members. */
export interface GroupCard {
  entry: number;
  name: string;
  /** Each member as `uid:<uid>` or `email:<lowercased address>`. */
  members: string[];
}

export interface ParsedFile {
  entries: ImportEntry[];
  groupCards: GroupCard[];
  skipped: { entry: number; reason: string }[];
}

/** A UID as a MEMBER names it: lowercased, without urn:uuid:. */
export const uidKey = (uid: string) =>
  uid
    .trim()
    .toLowerCase()
    .replace(/^urn:uuid:/, '');

/** A calendar date YYYY-MM-DD that exists (not 2023-02-30), else null. */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (!(year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= 31)) return null;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** YYYY-MM-DD (or YYYYMMDD, or a date-time starting so) as a date that exists, else null. */
export function isoDate(text: string): string | null {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})(?:$|T)/.exec(text.trim());
  return m ? calendarDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}
