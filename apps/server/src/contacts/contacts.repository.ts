import { sql } from 'kysely';
import { countRows, type Db, ownRow, type Trx, type VcardProperty } from '../core/db/index.js';

/** A contact as stored, with its addresses (the primary first) and its groups. */
export interface ContactRecord {
  id: number;
  name: string;
  surname: string;
  phone: string;
  birthday: string | null;
  notes: string;
  properties: VcardProperty[];
  emails: string[];
  groups: number[];
}

/** What a write sets: every column, and the addresses in order (the primary first). */
export type ContactValues = Omit<ContactRecord, 'id' | 'groups'>;

/** `text` as a LIKE pattern matches it literally. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * What a search matches (see migration 019): ' name surname phone address…', lowercased by the database. A search
 * word is found anywhere in it (`like '%q%'`, as Gmail finds "wayne" in mallory@wayne.example), which the trigram
 * index contacts_search serves.
 */
const searchTextOf = (v: ContactValues) =>
  sql<string>`' ' || lower(${v.name}::text) || ' ' || lower(${v.surname}::text) || ' ' || lower(${v.phone}::text)
    || lower(${v.emails.map((e) => ` ${e}`).join('')}::text)`;

/** The contacts of `ids` that are the account's, in no order, with their addresses and groups. */
export async function findContacts(db: Db, accountId: number, ids: number[]): Promise<ContactRecord[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('contacts')
    .select([
      'id',
      'name',
      'surname',
      'phone',
      sql<string | null>`birthday::text`.as('birthday'),
      'notes',
      'vcard_properties',
    ])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return withEmailsAndGroups(db, rows);
}

async function withEmailsAndGroups(
  db: Db,
  rows: (Omit<ContactRecord, 'properties' | 'emails' | 'groups'> & { vcard_properties: VcardProperty[] })[],
): Promise<ContactRecord[]> {
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const [emails, members] = await Promise.all([
    db
      .selectFrom('contact_emails')
      .select(['contact_id', 'email'])
      .where('contact_id', 'in', ids)
      .orderBy('contact_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('contact_group_members')
      .select(['contact_id', 'group_id'])
      .where('contact_id', 'in', ids)
      .orderBy('group_id')
      .execute(),
  ]);
  const emailsOf = new Map<number, string[]>();
  for (const e of emails) emailsOf.set(e.contact_id, [...(emailsOf.get(e.contact_id) ?? []), e.email]);
  const groupsOf = new Map<number, number[]>();
  for (const m of members) groupsOf.set(m.contact_id, [...(groupsOf.get(m.contact_id) ?? []), m.group_id]);
  return rows.map(({ vcard_properties, ...r }) => ({
    ...r,
    properties: vcard_properties,
    emails: emailsOf.get(r.id) ?? [],
    groups: groupsOf.get(r.id) ?? [],
  }));
}

/**
 * A page of the account's contacts by surname, then name (optionally one group's), each word of `words` found
 * anywhere inside the name, surname, phone or an address; and how many there are in all.
 */
export async function listContacts(
  db: Db,
  accountId: number,
  opts: { words: string[]; groupId?: number; offset: number; limit: number },
): Promise<{ contacts: ContactRecord[]; total: number }> {
  let query = db.selectFrom('contacts as c').where('c.account_id', '=', accountId);
  for (const word of opts.words)
    query = query.where(sql<boolean>`c.search_text like lower(${`%${escapeLike(word)}%`}::text)`);
  if (opts.groupId !== undefined) {
    const groupId = opts.groupId;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('contact_group_members as m')
          .select('m.contact_id')
          .whereRef('m.contact_id', '=', 'c.id')
          .where('m.group_id', '=', groupId),
      ),
    );
  }
  const [rows, total] = await Promise.all([
    query
      .select([
        'c.id',
        'c.name',
        'c.surname',
        'c.phone',
        sql<string | null>`c.birthday::text`.as('birthday'),
        'c.notes',
        'c.vcard_properties',
      ])
      .orderBy(sql`lower(c.surname)`)
      .orderBy(sql`lower(c.name)`)
      .orderBy('c.id')
      .offset(opts.offset)
      .limit(opts.limit)
      .execute(),
    countRows(query),
  ]);
  return { contacts: await withEmailsAndGroups(db, rows), total };
}

/** Writes a contact whole (a new one when `id` is null) with its addresses; returns its id. */
export async function saveContact(
  trx: Trx,
  accountId: number,
  id: number | null,
  values: ContactValues,
): Promise<number> {
  const columns = {
    name: values.name,
    surname: values.surname,
    phone: values.phone,
    birthday: values.birthday,
    notes: values.notes,
    vcard_properties: JSON.stringify(values.properties),
    search_text: searchTextOf(values),
  };
  let contactId: number;
  if (id === null) {
    const row = await trx
      .insertInto('contacts')
      .values({ account_id: accountId, ...columns })
      .returning('id')
      .executeTakeFirstOrThrow();
    contactId = row.id;
  } else {
    await trx
      .updateTable('contacts')
      .set({ ...columns, updated_at: new Date() })
      .where(ownRow(id, accountId))
      .execute();
    await trx.deleteFrom('contact_emails').where('contact_id', '=', id).execute();
    contactId = id;
  }
  if (values.emails.length)
    await trx
      .insertInto('contact_emails')
      .values(
        values.emails.map((email, position) => ({
          contact_id: contactId,
          account_id: accountId,
          position,
          email,
          email_lower: email.toLowerCase(),
          name_lower: sql<string>`lower(${values.name}::text || ' ' || ${values.surname}::text)`,
        })),
      )
      .execute();
  return contactId;
}

/**
 * Holds the account's imports one after another until the transaction ends (an advisory lock: mail delivery, which
 * locks the account row, goes on), so two imports of one file cannot both find nothing and add it twice.
 */
export async function lockAddressBook(trx: Trx, accountId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`contacts:${accountId}`}::text, 0))`.execute(trx);
}

/** Deletes the account's contacts of `ids`; returns how many went. */
export async function deleteContacts(trx: Trx, accountId: number, ids: number[]): Promise<number> {
  const gone = await trx
    .deleteFrom('contacts')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .returning('id')
    .execute();
  return gone.length;
}

/** Which of `ids` are the account's contacts. */
export async function ownedContactIds(db: Db, accountId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('contacts')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** The account's contact that has this address (lowercased), the oldest when several have it. */
export async function contactIdByEmail(
  db: Db,
  accountId: number,
  emailLower: string,
): Promise<number | null> {
  const row = await db
    .selectFrom('contact_emails')
    .select('contact_id')
    .where('account_id', '=', accountId)
    .where('email_lower', '=', emailLower)
    .orderBy('contact_id')
    .limit(1)
    .executeTakeFirst();
  return row?.contact_id ?? null;
}

/** Every contact of the account, whole, by surname then name (what an export writes). */
export async function allContacts(db: Db, accountId: number, groupId?: number): Promise<ContactRecord[]> {
  const all: ContactRecord[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await listContacts(db, accountId, {
      words: [],
      ...(groupId !== undefined ? { groupId } : {}),
      offset,
      limit: 1000,
    });
    all.push(...page.contacts);
    if (page.contacts.length < 1000) return all;
  }
}

/** What an import matches against: every contact's id, name, surname and lowercased addresses. */
export async function contactKeys(
  db: Db,
  accountId: number,
): Promise<{ id: number; name: string; surname: string; emails: string[] }[]> {
  const rows = await db
    .selectFrom('contacts as c')
    .leftJoin('contact_emails as e', 'e.contact_id', 'c.id')
    .select(['c.id', 'c.name', 'c.surname', 'e.email_lower'])
    .where('c.account_id', '=', accountId)
    .orderBy('c.id')
    .orderBy('e.position')
    .execute();
  const byId = new Map<number, { id: number; name: string; surname: string; emails: string[] }>();
  for (const r of rows) {
    const contact = byId.get(r.id) ?? { id: r.id, name: r.name, surname: r.surname, emails: [] };
    if (r.email_lower) contact.emails.push(r.email_lower);
    byId.set(r.id, contact);
  }
  return [...byId.values()];
}

/** How many contacts the account has. */
export async function countContacts(db: Db, accountId: number): Promise<number> {
  return countRows(db.selectFrom('contacts').where('account_id', '=', accountId));
}

/** Every address of the account's contacts, lowercased and distinct, at most `limit` (the spam allow list's import). */
export async function contactAddresses(db: Db, accountId: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('contact_emails as e')
    .innerJoin('contacts as c', 'c.id', 'e.contact_id')
    .select('e.email_lower')
    .distinct()
    .where('c.account_id', '=', accountId)
    .orderBy('e.email_lower')
    .limit(limit)
    .execute();
  return rows.map((r) => r.email_lower);
}
