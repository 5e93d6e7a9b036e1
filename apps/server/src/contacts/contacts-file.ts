import { isDeepStrictEqual } from 'node:util';
import { CONTACT_EMAILS_MAX, isEmail } from '@mailroom/protocol';
import type { VcardProperty } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { decodeFile, decodeFileSliced } from './charset.js';
import type { ContactValues } from './contacts.repository.js';
import type { ImportEntry, ParsedFile } from './import-entry.js';
import { VCARD_PROPERTIES_MAX } from './vcard-prepass.js';

/**
 * A contacts file as an import reads it: its kind (vCard or CSV), its entries, and each entry's values as a contact
 * would hold them, or what it adds to a contact already there. The import job is transfer.service.ts.
 */

/** The largest contacts file an import reads (the route refuses a larger body with request_entity_too_large). */
export const CONTACTS_FILE_MAX_BYTES = 5 * 1024 * 1024;

// The readers (ical.js for vCard, csv-parse for CSV) load with the first file read or written, not at start: an
// idle server's heap holds none of them (issue 32).
const csvReader = () => import('./contacts-csv.js');
const vcardReader = () => import('./vcard.js');

/** A file's kind, found cheaply (the request answers at once): vCard when told or when it holds a BEGIN:VCARD, CSV
 * when told or when its header is known; else contacts_file_unreadable. */
export async function contactsFileFormat(
  file: Buffer,
  format: 'auto' | 'vcard' | 'csv',
): Promise<'vcard' | 'csv'> {
  const head = file.subarray(0, 64 * 1024).toString('latin1');
  if (format === 'vcard' || (format === 'auto' && /^\s*BEGIN:VCARD\s*$/im.test(head))) {
    if (!/^\s*BEGIN:VCARD\s*$/im.test(file.toString('latin1')))
      throw new DomainError('contacts_file_unreadable');
    return 'vcard';
  }
  if (format === 'csv' || (await csvReader()).looksLikeContactsCsv(decodeFile(file.subarray(0, 64 * 1024))))
    return 'csv';
  throw new DomainError('contacts_file_unreadable');
}

/** A file's entries, read a slice at a time with `pause` between (see contactsFileFormat for the kind). */
export async function parseContactsFile(
  file: Buffer,
  format: 'vcard' | 'csv',
  pause: () => Promise<void>,
): Promise<ParsedFile> {
  if (format === 'vcard') {
    const parsed = await (await vcardReader()).parseVcardsSliced(file, pause);
    if (!parsed.entries.length && !parsed.groupCards.length && !parsed.skipped.length)
      throw new DomainError('contacts_file_unreadable');
    return parsed;
  }
  // A NUL is no character a text column holds.
  const text = (await decodeFileSliced(file, pause)).replaceAll('\u0000', '');
  try {
    return await (await csvReader()).parseContactsCsvSliced(text, pause);
  } catch (err) {
    throw new DomainError(
      'contacts_file_unreadable',
      `The CSV file cannot be read: ${(err as Error).message}`,
    );
  }
}

export const clip = (text: string, max: number) => text.slice(0, max);
export const nameKey = (name: string, surname: string) =>
  `${name.trim().toLowerCase()}\u0000${surname.trim().toLowerCase()}`;

/** An entry's values as a contact would hold them: addresses checked (others kept as vCard properties), lengths cut. */
export function valuesOf(entry: ImportEntry): ContactValues {
  const emails: string[] = [];
  const properties: VcardProperty[] = [...entry.properties];
  const seen = new Set<string>();
  for (const raw of entry.emails.map((e) => e.trim())) {
    if (seen.has(raw.toLowerCase())) continue;
    seen.add(raw.toLowerCase());
    if (isEmail(raw) && emails.length < CONTACT_EMAILS_MAX) emails.push(raw);
    else properties.push(['email', {}, 'text', raw]);
  }
  return {
    name: clip(entry.name.trim(), 200),
    surname: clip(entry.surname.trim(), 200),
    emails,
    phone: clip(entry.phone.trim(), 100),
    birthday: entry.birthday,
    notes: clip(entry.notes, 10_000),
    properties: properties.slice(0, VCARD_PROPERTIES_MAX),
  };
}

/**
 * What an entry adds to a contact already there: addresses it lacks, a phone, date of birth or notes where it has
 * none (another phone kept as a vCard TEL), properties it does not have. Null when it adds nothing.
 */
export function merged(current: ContactValues, incoming: ContactValues): ContactValues | null {
  const next: ContactValues = {
    ...current,
    emails: [...current.emails],
    properties: [...current.properties],
  };
  const has = new Set(current.emails.map((e) => e.toLowerCase()));
  for (const email of incoming.emails)
    if (!has.has(email.toLowerCase()) && next.emails.length < CONTACT_EMAILS_MAX) {
      next.emails.push(email);
      has.add(email.toLowerCase());
    }
  const extraTel: VcardProperty = ['tel', {}, 'text', incoming.phone];
  if (!next.phone) next.phone = incoming.phone;
  else if (
    incoming.phone &&
    incoming.phone !== next.phone &&
    !next.properties.some((p) => p[0] === 'tel' && p[3] === incoming.phone)
  )
    next.properties.push(extraTel);
  next.birthday ??= incoming.birthday;
  if (!next.notes) next.notes = incoming.notes;
  for (const p of incoming.properties)
    if (
      next.properties.length < VCARD_PROPERTIES_MAX &&
      !next.properties.some((q) => isDeepStrictEqual(q, p))
    )
      next.properties.push(p);
  return isDeepStrictEqual(next, current) ? null : next;
}
