import {
  CONTACT_EMAILS_MAX,
  isEmail,
  type Contact,
  type ContactsResponse,
  type contactInputSchema,
  type contactsQuerySchema,
  type contactUpdateSchema,
  type KnownResponse,
} from '@mailroom/protocol';
import type { z } from 'zod';
import { transact, type Db } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import {
  contactIdByEmail,
  countContacts,
  deleteContacts,
  findContacts,
  listContacts,
  lockAddressBook,
  ownedContactIds,
  saveContact,
  type ContactRecord,
  type ContactValues,
} from './contacts.repository.js';
import { isCorrespondent } from './correspondents.repository.js';
import { findGroup } from './groups.repository.js';
import { contactsChanged, type ContactsDeps } from './changes.js';
import { isoDate } from './import-entry.js';

/** A contact as the API gives it. */
export function toContact(record: ContactRecord): Contact {
  return {
    id: record.id,
    name: record.name,
    surname: record.surname,
    email: record.emails[0] ?? '',
    emails: record.emails,
    phone: record.phone,
    birthday: record.birthday,
    notes: record.notes,
    groups: record.groups,
  };
}

/** A name as stored: trimmed, required (name_not_indicated: "You didn't specify a name!"). */
export function requiredName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new DomainError('name_not_indicated');
  return trimmed;
}

/**
 * A contact's addresses in order: blanks left out, each an address (failed_validation_email_address), each once in
 * any case, `primary` (when given) first, and at most CONTACT_EMAILS_MAX of them.
 */
export function checkedEmails(emails: readonly string[], primary?: string): string[] {
  const wanted = [primary ?? '', ...emails].map((e) => e.trim()).filter(Boolean);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const email of wanted) {
    if (!isEmail(email))
      throw new DomainError('failed_validation_email_address', `Invalid email address: ${email}`);
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  if (out.length > CONTACT_EMAILS_MAX) throw new DomainError('invalid_request_params');
  return out;
}

/** A date of birth that is a day of the calendar, or null (invalid_request_params otherwise). */
function checkedBirthday(birthday: string | null): string | null {
  if (birthday === null) return null;
  const date = isoDate(birthday);
  if (!date) throw new DomainError('invalid_request_params', 'Invalid date of birth');
  return date;
}

/** The caller's contact, or entity_not_found for an unknown id or another account's. */
export async function requireContact(db: Db, accountId: number, contactId: number): Promise<ContactRecord> {
  const [record] = await findContacts(db, accountId, [contactId]);
  if (!record) throw new DomainError('entity_not_found');
  return record;
}

/** GET contacts: a page by surname then name, or a search (each word found inside a field), optionally in one group. */
export async function getContacts(
  db: Db,
  accountId: number,
  query: z.output<typeof contactsQuerySchema>,
): Promise<ContactsResponse> {
  if (query.group !== undefined && !(await findGroup(db, accountId, query.group)))
    throw new DomainError('entity_not_found');
  const words = (query.search ?? '').trim().split(/\s+/).filter(Boolean);
  const page = await listContacts(db, accountId, {
    words,
    ...(query.group !== undefined ? { groupId: query.group } : {}),
    offset: (query.page - 1) * query.size,
    limit: query.size,
  });
  return { contacts: page.contacts.map(toContact), total: page.total };
}

export async function getContact(db: Db, accountId: number, contactId: number): Promise<Contact> {
  return toContact(await requireContact(db, accountId, contactId));
}

/** POST contacts. */
export async function createContact(
  deps: ContactsDeps,
  accountId: number,
  input: z.output<typeof contactInputSchema>,
  limits: ContactLimits,
): Promise<Contact> {
  const values: ContactValues = {
    name: requiredName(input.name),
    surname: input.surname.trim(),
    emails: checkedEmails(input.emails, input.email),
    phone: input.phone.trim(),
    birthday: checkedBirthday(input.birthday),
    notes: input.notes,
    properties: [],
  };
  const id = await transact(deps.db, async (trx) => {
    await lockAddressBook(trx, accountId);
    if ((await countContacts(trx, accountId)) >= limits.max) throw new DomainError('contacts_limit_reached');
    await contactsChanged(trx, deps, accountId, ['contacts']);
    return saveContact(trx, accountId, null, values);
  });
  return getContact(deps.db, accountId, id);
}

/** The address book's limits (config.contacts: MAX_CONTACTS, MAX_CONTACT_GROUPS). */
export interface ContactLimits {
  max: number;
  maxGroups: number;
}

/**
 * POST contacts/{id}: only the fields given change. `emails` replaces the addresses; `email` alone makes one of
 * them (or a new one) the primary. A new name drops the full name an import kept (its FN), which no longer fits.
 */
export async function updateContact(
  deps: ContactsDeps,
  accountId: number,
  contactId: number,
  patch: z.output<typeof contactUpdateSchema>,
): Promise<Contact> {
  await transact(deps.db, async (trx) => {
    const current = await requireContact(trx, accountId, contactId);
    const renamed = patch.name !== undefined || patch.surname !== undefined;
    const values: ContactValues = {
      name: patch.name !== undefined ? requiredName(patch.name) : current.name,
      surname: patch.surname !== undefined ? patch.surname.trim() : current.surname,
      emails:
        patch.emails !== undefined || patch.email !== undefined
          ? checkedEmails(patch.emails ?? current.emails, patch.email)
          : current.emails,
      phone: patch.phone !== undefined ? patch.phone.trim() : current.phone,
      birthday: patch.birthday !== undefined ? checkedBirthday(patch.birthday) : current.birthday,
      notes: patch.notes ?? current.notes,
      properties: renamed ? current.properties.filter((p) => p[0] !== 'fn') : current.properties,
    };
    await saveContact(trx, accountId, contactId, values);
    await contactsChanged(trx, deps, accountId, ['contacts']);
  });
  return getContact(deps.db, accountId, contactId);
}

/**
 * DELETE contacts/{id} and POST contacts/delete: every id must be the caller's contact, or nothing is deleted
 * (entity_not_found).
 */
export async function removeContacts(deps: ContactsDeps, accountId: number, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  await transact(deps.db, async (trx) => {
    const owned = await ownedContactIds(trx, accountId, unique);
    if (owned.size !== unique.length) throw new DomainError('entity_not_found');
    await deleteContacts(trx, accountId, unique);
    // A group lists its contacts: it changes with them.
    await contactsChanged(trx, deps, accountId, ['contacts', 'groups']);
  });
}

/** GET contacts/known: the contact with this address, and whether the account has written to it. */
export async function knownAddress(db: Db, accountId: number, email: string): Promise<KnownResponse> {
  const key = email.trim().toLowerCase();
  const [contactId, writtenTo] = await Promise.all([
    contactIdByEmail(db, accountId, key),
    isCorrespondent(db, accountId, key),
  ]);
  return { contact_id: contactId, written_to: writtenTo };
}

/** Whether a sender is someone the account knows: a contact, or an address it has written to (image_display). */
export async function isKnownSender(db: Db, accountId: number, email: string): Promise<boolean> {
  const key = email.trim().toLowerCase();
  if (!key) return false;
  if (await isCorrespondent(db, accountId, key)) return true;
  return (await contactIdByEmail(db, accountId, key)) !== null;
}
