import { isDeepStrictEqual } from 'node:util';
import {
  CONTACT_EMAILS_MAX,
  isEmail,
  type ContactImportResponse,
  type contactImportQuerySchema,
} from '@mailroom/protocol';
import type { z } from 'zod';
import { isUniqueViolation, transact, type Db, type VcardProperty } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { decodeFile } from './charset.js';
import { looksLikeContactsCsv, parseContactsCsv } from './contacts-csv.js';
import {
  allContacts,
  contactKeys,
  findContacts,
  lockAddressBook,
  saveContact,
  type ContactValues,
} from './contacts.repository.js';
import { addMembers, listGroups } from './groups.repository.js';
import { ensureGroup, requireGroup } from './groups.service.js';
import type { ImportEntry, ParsedFile } from './import-entry.js';
import { parseVcards, writeVcards } from './vcard.js';

/** The largest contacts file an import reads (the route refuses a larger body with request_entity_too_large). */
export const CONTACTS_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** A file's entries: vCard when told or when it holds a BEGIN:VCARD, CSV when told or when its header is known. */
export function parseContactsFile(file: Buffer, format: 'auto' | 'vcard' | 'csv'): ParsedFile {
  const head = file.subarray(0, 64 * 1024).toString('latin1');
  const vcard = format === 'vcard' || (format === 'auto' && /^\s*BEGIN:VCARD\s*$/im.test(head));
  if (vcard) {
    const parsed = parseVcards(file);
    if (!parsed.entries.length && !parsed.groupCards.length && !parsed.skipped.length)
      throw new DomainError('contacts_file_unreadable');
    return parsed;
  }
  const text = decodeFile(file);
  if (format === 'csv' || looksLikeContactsCsv(text)) {
    try {
      return parseContactsCsv(text);
    } catch (err) {
      throw new DomainError(
        'contacts_file_unreadable',
        `The CSV file cannot be read: ${(err as Error).message}`,
      );
    }
  }
  throw new DomainError('contacts_file_unreadable');
}

const clip = (text: string, max: number) => text.slice(0, max);
const nameKey = (name: string, surname: string) =>
  `${name.trim().toLowerCase()}\u0000${surname.trim().toLowerCase()}`;

/** An entry's values as a contact would hold them: addresses checked (others kept as vCard properties), lengths cut. */
function valuesOf(entry: ImportEntry): ContactValues {
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
    properties,
  };
}

/**
 * What an entry adds to a contact already there: addresses it lacks, a phone, date of birth or notes where it has
 * none (another phone kept as a vCard TEL), properties it does not have. Null when it adds nothing.
 */
function merged(current: ContactValues, incoming: ContactValues): ContactValues | null {
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
    if (!next.properties.some((q) => isDeepStrictEqual(q, p))) next.properties.push(p);
  return isDeepStrictEqual(next, current) ? null : next;
}

/**
 * POST contacts/import. In one transaction: each entry is matched with a contact already there (by any of its
 * addresses, else by name and surname in any case when the entry or the contact has no address) and completes it,
 * or is added; its groups (CATEGORIES, a group
 * card naming it, a CSV's groups, and `group`) are found by name or made. So the same file imported twice adds
 * nothing the second time.
 */
export async function importContacts(
  db: Db,
  accountId: number,
  file: Buffer,
  query: z.output<typeof contactImportQuerySchema>,
): Promise<ContactImportResponse> {
  const target = query.group !== undefined ? await requireGroup(db, accountId, query.group) : undefined;
  const parsed = parseContactsFile(file, query.format);

  // Group cards name their members by UID or address; each such entry joins the card's group.
  const groupsOfEntry = new Map<ImportEntry, string[]>();
  const byUid = new Map<string, ImportEntry[]>();
  for (const e of parsed.entries) if (e.uid) byUid.set(e.uid, [...(byUid.get(e.uid) ?? []), e]);
  const unresolvedEmails: { group: string; email: string }[] = [];
  for (const card of parsed.groupCards) {
    for (const ref of card.members) {
      const found = ref.startsWith('uid:')
        ? (byUid.get(ref.slice(4)) ?? [])
        : parsed.entries.filter((e) => e.emails.some((m) => m.trim().toLowerCase() === ref.slice(6)));
      for (const e of found) groupsOfEntry.set(e, [...(groupsOfEntry.get(e) ?? []), card.name]);
      if (!found.length && ref.startsWith('email:'))
        unresolvedEmails.push({ group: card.name, email: ref.slice(6) });
    }
  }

  // Two imports racing to make the same group meet its unique index: the loser runs again and finds it.
  const run = () =>
    transact(db, async (trx) => {
      const result: ContactImportResponse = {
        added: 0,
        updated: 0,
        unchanged: 0,
        groups_added: 0,
        skipped: [...parsed.skipped],
      };
      await lockAddressBook(trx, accountId);
      const keys = await contactKeys(trx, accountId);
      const byEmail = new Map<string, number>();
      // By name: any contact (for an entry without an address), or one without an address (for an entry with
      // some): two people of one name with addresses of their own stay two.
      const byName = new Map<string, number>();
      const byNameWithoutAddress = new Map<string, number>();
      const knowName = (name: string, surname: string, id: number, hasAddress: boolean) => {
        const key = nameKey(name, surname);
        if (!byName.has(key)) byName.set(key, id);
        if (!hasAddress && !byNameWithoutAddress.has(key)) byNameWithoutAddress.set(key, id);
        if (hasAddress && byNameWithoutAddress.get(key) === id) byNameWithoutAddress.delete(key);
      };
      for (const k of keys) {
        for (const e of k.emails) if (!byEmail.has(e)) byEmail.set(e, k.id);
        knowName(k.name, k.surname, k.id, k.emails.length > 0);
      }
      const groupIds = new Map<string, number>();
      const groupId = async (name: string): Promise<number> => {
        const key = name.toLowerCase();
        const known = groupIds.get(key);
        if (known !== undefined) return known;
        const { group, created } = await ensureGroup(trx, accountId, clip(name, 200));
        if (created) result.groups_added++;
        groupIds.set(key, group.id);
        return group.id;
      };
      for (const card of parsed.groupCards) if (card.name.trim()) await groupId(card.name.trim());
      if (target) groupIds.set(target.name.toLowerCase(), target.id);

      for (const entry of parsed.entries) {
        const values = valuesOf(entry);
        if (!values.name && !values.surname) {
          if (!values.emails.length) {
            result.skipped.push({ entry: entry.entry, reason: 'no name and no address' });
            continue;
          }
          values.name = values.emails[0]!;
        }
        const names = [...entry.groups, ...(groupsOfEntry.get(entry) ?? []), ...(target ? [target.name] : [])]
          .map((g) => g.trim())
          .filter(Boolean);
        const match =
          values.emails.map((e) => byEmail.get(e.toLowerCase())).find((id) => id !== undefined) ??
          (values.emails.length ? byNameWithoutAddress : byName).get(nameKey(values.name, values.surname));
        let contactId: number;
        let changed = false;
        if (match === undefined) {
          contactId = await saveContact(trx, accountId, null, values);
          result.added++;
        } else {
          contactId = match;
          const [current] = await findContacts(trx, accountId, [match]);
          const next = merged(current!, values);
          if (next) {
            await saveContact(trx, accountId, match, next);
            changed = true;
            for (const e of next.emails)
              if (!byEmail.has(e.toLowerCase())) byEmail.set(e.toLowerCase(), match);
          }
        }
        for (const e of values.emails)
          if (!byEmail.has(e.toLowerCase())) byEmail.set(e.toLowerCase(), contactId);
        knowName(values.name, values.surname, contactId, values.emails.length > 0);
        for (const name of new Set(names.map((n) => n.toLowerCase()))) {
          const original = names.find((n) => n.toLowerCase() === name)!;
          if ((await addMembers(trx, await groupId(original), [contactId])) > 0 && match !== undefined)
            changed = true;
        }
        if (match !== undefined) {
          if (changed) result.updated++;
          else result.unchanged++;
        }
      }
      for (const { group, email } of unresolvedEmails) {
        const id = byEmail.get(email);
        if (id !== undefined) await addMembers(trx, await groupId(group), [id]);
      }
      return result;
    });
  try {
    return await run();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return run();
  }
}

/** A file name for Content-Disposition: the group's name (or "contacts"), ASCII-safe beside its UTF-8 form. */
function fileNameFor(name: string): { ascii: string; utf8: string } {
  // eslint-disable-next-line no-control-regex
  const base = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'contacts';
  const ascii = base.replace(/[^\x20-\x7e]/g, '_');
  return { ascii: `${ascii}.vcf`, utf8: `${base}.vcf` };
}

/** GET contacts/export: every contact, or one group's, as one vCard 4.0 file with its groups as CATEGORIES. */
export async function exportContacts(
  db: Db,
  accountId: number,
  groupId: number | undefined,
): Promise<{ text: string; fileName: { ascii: string; utf8: string } }> {
  const group = groupId !== undefined ? await requireGroup(db, accountId, groupId) : undefined;
  const [contacts, groups] = await Promise.all([
    allContacts(db, accountId, groupId),
    listGroups(db, accountId),
  ]);
  const groupName = new Map(groups.map((g) => [g.id, g.name]));
  const text = writeVcards(
    contacts.map((c) => ({
      ...c,
      groups: c.groups
        .map((id) => groupName.get(id))
        .filter((n): n is string => n !== undefined)
        .sort((x, y) => x.localeCompare(y, 'en')),
    })),
  );
  return { text, fileName: fileNameFor(group?.name ?? 'contacts') };
}
