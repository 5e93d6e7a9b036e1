import { CONTACT_SEARCH_SIZE, CONTACTS_PAGE_SIZE, type Contact } from '@mailroom/protocol';

/** The tabs of /contacts (SPEC §2 query tab). */
export type ContactsTab = 'contacts' | 'groups';

/** What the address of /contacts says (SPEC §2: tab, limit default 100, page; and the group open in the groups tab). */
export interface ContactsQuery {
  tab: ContactsTab;
  page: number;
  limit: number;
  /** The group open in the groups tab. */
  group: number | null;
}

/** What each tab of /contacts is drawn with: the address's query and the header's "New" button, pressed or not. */
export interface ContactsTabProps {
  query: ContactsQuery;
  /** The header's "New contact" (or "New group") was pressed. */
  creating: boolean;
  onCreatingChange(creating: boolean): void;
}

function wholeNumber(value: string | null, min: number, max: number): number | null {
  if (value === null || !/^\d{1,7}$/.test(value)) return null;
  const number = Number(value);
  return number >= min && number <= max ? number : null;
}

/** Reads the query of /contacts; anything malformed is left out, as if it were not there. */
export function readContactsQuery(search: URLSearchParams): ContactsQuery {
  const tab = search.get('tab') === 'groups' ? 'groups' : 'contacts';
  return {
    tab,
    page: wholeNumber(search.get('page'), 1, 100_000) ?? 1,
    limit: wholeNumber(search.get('limit'), 1, CONTACT_SEARCH_SIZE) ?? CONTACTS_PAGE_SIZE,
    group: tab === 'groups' ? wholeNumber(search.get('group'), 1, 999_999_999) : null,
  };
}

/** The address of /contacts for a query; the defaults are left out (a plain /contacts is the first page). */
export function contactsPath(query: Partial<ContactsQuery>): string {
  const params = new URLSearchParams();
  if (query.tab === 'groups') params.set('tab', 'groups');
  if (query.group) params.set('group', String(query.group));
  if (query.page && query.page > 1) params.set('page', String(query.page));
  if (query.limit && query.limit !== CONTACTS_PAGE_SIZE) params.set('limit', String(query.limit));
  const text = params.toString();
  return text ? `/contacts?${text}` : '/contacts';
}

/** Name and surname as one line ('' when both are empty). */
export function fullName(contact: Pick<Contact, 'name' | 'surname'>): string {
  return `${contact.name} ${contact.surname}`.trim();
}

/** "Name Surname <address>" for a recipient field, or null for a contact without an address. */
export function recipientOf(contact: Pick<Contact, 'name' | 'surname' | 'email'>): string | null {
  if (!contact.email) return null;
  const name = fullName(contact).replace(/[<>"]/g, '');
  return name ? `${name} <${contact.email}>` : contact.email;
}

/**
 * /mail with a new message to these contacts (SPEC §2: the mail page's recipient parameter, once per recipient);
 * null when none of them has an address.
 */
export function writeToPath(contacts: readonly Pick<Contact, 'name' | 'surname' | 'email'>[]): string | null {
  const params = new URLSearchParams();
  for (const contact of contacts) {
    const recipient = recipientOf(contact);
    if (recipient) params.append('recipient', recipient);
  }
  return params.size > 0 ? `/mail?${params.toString()}` : null;
}

/** /mail with a new message to every member of a group (SPEC §2: the mail page's group parameter). */
export function writeToGroupPath(groupId: number): string {
  return `/mail?group=${groupId}`;
}

/**
 * A sender's display name as a contact's name and surname: 'Ann Lee' → Ann + Lee, 'Lee, Ann' → Ann + Lee (the
 * order address books export), 'Ann Marie Lee' → Ann Marie + Lee; without a name, the address's local part.
 */
export function splitDisplayName(display: string, email: string): { name: string; surname: string } {
  const text = display.replace(/\s+/g, ' ').trim();
  if (!text || text.toLowerCase() === email.toLowerCase())
    return { name: email.split('@')[0] ?? email, surname: '' };
  const comma = text.indexOf(',');
  if (comma > 0) {
    const surname = text.slice(0, comma).trim();
    const name = text.slice(comma + 1).trim();
    if (name && surname) return { name, surname };
  }
  const space = text.lastIndexOf(' ');
  if (space < 0) return { name: text, surname: '' };
  return { name: text.slice(0, space), surname: text.slice(space + 1) };
}

/** The rows one page shows, as 'from–to of total' counts (0–0 of 0 for an empty list). */
export function pageRange(page: number, limit: number, shown: number, total: number) {
  const from = shown === 0 ? 0 : (page - 1) * limit + 1;
  return { from, to: shown === 0 ? 0 : from + shown - 1, total };
}

/** The last page a list of `total` has (1 for an empty list). */
export function lastPage(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
