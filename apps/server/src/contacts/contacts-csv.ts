import { parse } from 'csv-parse/sync';
import type { VcardProperty } from '../core/db/index.js';
import { calendarDate, isoDate, type ImportEntry, type ParsedFile } from './import-entry.js';

/**
 * CSV exports of contacts as Google Contacts and Outlook write them, read with csv-parse: the header row says which
 * column is what (English, and Outlook's Russian), the delimiter is the header's commonest of `,` `;` tab. Google
 * puts several values in one cell with ` ::: ` and groups in "Group Membership" or "Labels" (`* myContacts :::
 * Friends`; its own `* myContacts` and `* starred` are not groups); Outlook separates Categories with `;`. What the
 * address book does not show but vCard has a property for (organisation, job title, web page, nickname, more
 * phones, postal addresses) is kept as that property. Pure: text in, entries out.
 */

type Role =
  | 'full'
  | 'given'
  | 'additional'
  | 'family'
  | 'prefix'
  | 'suffix'
  | 'nickname'
  | 'email'
  | 'phone'
  | 'fax'
  | 'birthday'
  | 'notes'
  | 'groups'
  | 'org'
  | 'department'
  | 'title'
  | 'url'
  | 'address';

interface Column {
  index: number;
  role: Role;
  /** A phone's or address's kind from its header (home, work, cell…), for its TYPE. */
  kind?: string;
  /** For an address column: which address (e.g. "home", "address 1") and which part. */
  address?: { key: string; part: AddressPart };
  /** Google's "E-mail 1 - Type" style column that gives this value column's kind. */
  typeColumn?: number;
}

type AddressPart = 'pobox' | 'extended' | 'street' | 'city' | 'region' | 'code' | 'country';
const ADDRESS_ORDER: AddressPart[] = ['pobox', 'extended', 'street', 'city', 'region', 'code', 'country'];

const EXACT: Record<string, Role> = {
  name: 'full',
  'display name': 'full',
  'full name': 'full',
  'given name': 'given',
  'first name': 'given',
  имя: 'given',
  'additional name': 'additional',
  'middle name': 'additional',
  отчество: 'additional',
  'family name': 'family',
  'last name': 'family',
  фамилия: 'family',
  'name prefix': 'prefix',
  title: 'prefix',
  обращение: 'prefix',
  'name suffix': 'suffix',
  suffix: 'suffix',
  суффикс: 'suffix',
  nickname: 'nickname',
  псевдоним: 'nickname',
  birthday: 'birthday',
  'день рождения': 'birthday',
  notes: 'notes',
  заметки: 'notes',
  'group membership': 'groups',
  labels: 'groups',
  categories: 'groups',
  категории: 'groups',
  company: 'org',
  'organization name': 'org',
  'organization 1 - name': 'org',
  организация: 'org',
  department: 'department',
  'organization department': 'department',
  'organization 1 - department': 'department',
  отдел: 'department',
  'job title': 'title',
  'organization title': 'title',
  'organization 1 - title': 'title',
  должность: 'title',
  'web page': 'url',
  'веб-страница': 'url',
};

const PHONE_KINDS: [RegExp, string][] = [
  [/mobile|cell|мобильн/, 'cell'],
  [/business|work|company|рабоч/, 'work'],
  [/home|домашн/, 'home'],
  [/pager|пейджер/, 'pager'],
];

function kindOf(header: string): string | undefined {
  return PHONE_KINDS.find(([re]) => re.test(header))?.[1];
}

/** What each column is; columns we do not know are left out. */
function columnsOf(header: string[]): Column[] {
  const names = header.map((h) => h.trim().toLowerCase().replace(/\s+/g, ' '));
  const columns: Column[] = [];
  names.forEach((h, index) => {
    const exact = EXACT[h];
    if (exact) return columns.push({ index, role: exact });
    // Google: "E-mail 1 - Value" with "E-mail 1 - Type" (or "- Label"); "Phone 1 - Value"; "Website 1 - Value".
    const google =
      /^(e-mail|phone|website|address) (\d+) - (value|formatted|street|city|po box|region|postal code|country|extended address)$/.exec(
        h,
      );
    if (google) {
      const [, what, n, part] = google;
      const typeColumn = names.findIndex((o) => o === `${what} ${n} - type` || o === `${what} ${n} - label`);
      const withType = typeColumn >= 0 ? { typeColumn } : {};
      if (what === 'e-mail') return columns.push({ index, role: 'email', ...withType });
      if (what === 'phone') return columns.push({ index, role: 'phone', ...withType });
      if (what === 'website') return columns.push({ index, role: 'url', ...withType });
      const parts: Record<string, AddressPart> = {
        street: 'street',
        city: 'city',
        'po box': 'pobox',
        region: 'region',
        'postal code': 'code',
        country: 'country',
        'extended address': 'extended',
      };
      if (parts[part!])
        return columns.push({
          index,
          role: 'address',
          address: { key: `address ${n}`, part: parts[part!]! },
          ...withType,
        });
      return;
    }
    // Outlook: "E-mail Address", "E-mail 2 Address"; Russian "Адрес эл. почты", "Адрес 2 эл. почты".
    if (/^e-mail( \d)? address$/.test(h) || /^адрес( \d)? эл\. почты$/.test(h))
      return columns.push({ index, role: 'email' });
    if (/fax|факс/.test(h) && !/type|тип/.test(h))
      return columns.push({ index, role: 'fax', kind: kindOf(h) });
    if (/phone|телефон/.test(h) && !/type|тип|label|assistant|помощник/.test(h))
      return columns.push({ index, role: 'phone', kind: kindOf(h) });
    const outlookAddress =
      /^(business|home|other) (street|city|state|postal code|country\/region|country|po box|address po box)$/.exec(
        h,
      );
    if (outlookAddress) {
      const [, where, what] = outlookAddress;
      const part: AddressPart =
        what === 'street'
          ? 'street'
          : what === 'city'
            ? 'city'
            : what === 'state'
              ? 'region'
              : what === 'postal code'
                ? 'code'
                : what!.includes('country')
                  ? 'country'
                  : 'pobox';
      return columns.push({
        index,
        role: 'address',
        kind: where === 'business' ? 'work' : where,
        address: { key: where!, part },
      });
    }
  });
  return columns;
}

/** Google's several values in one cell. */
const values = (cell: string) =>
  cell
    .split(' ::: ')
    .map((v) => v.trim())
    .filter(Boolean);

/** A Google type cell ("* Home", "Mobile") as a vCard TYPE. */
const typeFrom = (cell: string | undefined) => {
  const t = (cell ?? '')
    .replace(/^\*\s*/, '')
    .trim()
    .toLowerCase();
  return t === 'mobile' ? 'cell' : t;
};

/**
 * A CSV birthday: 1980-05-17; --05-17 (Google, no year: kept as a vCard BDAY, not a date); 5/17/1980 (Outlook,
 * month first); 17.05.1980 (Outlook in Russian); 0/0/00 and the like mean none.
 */
export function csvBirthday(cell: string): { date: string | null; noYear: string | null } {
  const t = cell.trim();
  const none = { date: null, noYear: null };
  if (!t) return none;
  const iso = isoDate(t);
  if (iso) return { date: iso, noYear: null };
  const noYear = /^--(\d{2})-?(\d{2})$/.exec(t);
  if (noYear)
    return calendarDate(2000, Number(noYear[1]), Number(noYear[2])) ? { date: null, noYear: t } : none;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(t);
  if (us) return { date: calendarDate(Number(us[3]), Number(us[1]), Number(us[2])), noYear: null };
  const ru = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/.exec(t);
  if (ru) return { date: calendarDate(Number(ru[3]), Number(ru[2]), Number(ru[1])), noYear: null };
  return none;
}

/** Group names of a groups cell: Google's ` ::: ` lists (without its own groups), Outlook's `;` lists. */
export function csvGroups(cell: string): string[] {
  return cell
    .split(cell.includes(' ::: ') ? ' ::: ' : ';')
    .map((g) => g.trim())
    .filter((g) => g && !/^\*\s*(mycontacts|starred)$/i.test(g))
    .map((g) => g.replace(/^\*\s*/, ''));
}

function delimiterOf(firstLine: string): string {
  const counts = [',', ';', '\t'].map((d) => ({ d, n: firstLine.split(d).length }));
  return counts.sort((a, b) => b.n - a.n)[0]!.d;
}

/** Whether a text looks like a CSV of contacts: a header row with a column we know. */
export function looksLikeContactsCsv(text: string): boolean {
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? '';
  try {
    const [header] = parse(firstLine, {
      delimiter: delimiterOf(firstLine),
      relax_quotes: true,
    }) as string[][];
    return columnsOf(header ?? []).length > 0;
  } catch {
    return false;
  }
}

const CSV_OPTIONS = {
  relax_column_count: true,
  relax_quotes: true,
  skip_empty_lines: true,
  bom: true,
} as const;

/** A function making an import entry of each row after the header (i from 0). */
function entryMaker(header: string[]): (row: string[], i: number) => ImportEntry {
  const columns = columnsOf(header);
  return (row, i) => {
    const cell = (c: Column) => (row[c.index] ?? '').trim();
    const of = (role: Role) => columns.filter((c) => c.role === role && cell(c));
    const one = (role: Role) => of(role).map(cell)[0] ?? '';
    const properties: VcardProperty[] = [];
    let name = one('given');
    const surname = one('family');
    if (!name && !surname) name = one('full');
    const nameParts = [one('additional'), one('prefix'), one('suffix')];
    if (nameParts.some(Boolean)) properties.push(['n', {}, 'text', [surname, name, ...nameParts]]);
    const nickname = one('nickname');
    if (nickname) properties.push(['nickname', {}, 'text', nickname]);

    const emails = of('email').flatMap((c) => values(cell(c)));
    const phones = of('phone').flatMap((c) =>
      values(cell(c)).map((v) => ({
        v,
        kind: c.typeColumn !== undefined ? typeFrom(row[c.typeColumn]) : c.kind,
      })),
    );
    for (const extra of phones.slice(1))
      properties.push(['tel', extra.kind ? { type: extra.kind } : {}, 'text', extra.v]);
    for (const fax of of('fax'))
      properties.push(['tel', { type: fax.kind ? [fax.kind, 'fax'] : 'fax' }, 'text', cell(fax)]);

    const birthdayCell = csvBirthday(one('birthday'));
    if (birthdayCell.noYear) properties.push(['bday', {}, 'date-and-or-time', birthdayCell.noYear]);

    const org = one('org');
    const department = one('department');
    if (org || department) properties.push(['org', {}, 'text', department ? [org, department] : org]);
    const title = one('title');
    if (title) properties.push(['title', {}, 'text', title]);
    for (const url of of('url')) for (const v of values(cell(url))) properties.push(['url', {}, 'uri', v]);

    const addresses = new Map<string, { kind?: string; parts: Partial<Record<AddressPart, string>> }>();
    for (const c of of('address')) {
      const entry = addresses.get(c.address!.key) ?? {
        kind: c.typeColumn !== undefined ? typeFrom(row[c.typeColumn]) : c.kind,
        parts: {},
      };
      entry.parts[c.address!.part] = cell(c);
      addresses.set(c.address!.key, entry);
    }
    for (const a of addresses.values())
      properties.push([
        'adr',
        a.kind ? { type: a.kind } : {},
        'text',
        ADDRESS_ORDER.map((p) => a.parts[p] ?? ''),
      ]);

    return {
      entry: i + 1,
      name,
      surname,
      emails,
      phone: phones[0]?.v ?? '',
      birthday: birthdayCell.date,
      notes: of('notes')
        .map(cell)
        .join('\n')
        .replace(/\r\n|\r/g, '\n'),
      groups: of('groups').flatMap((c) => csvGroups(cell(c))),
      properties,
      uid: null,
    };
  };
}

/** Every row of a Google or Outlook CSV export as an import entry, at once (for small texts and tests). */
export function parseContactsCsv(text: string): ParsedFile {
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? '';
  const rows = parse(text, { ...CSV_OPTIONS, delimiter: delimiterOf(firstLine) }) as string[][];
  const [header, ...body] = rows;
  const make = entryMaker(header ?? []);
  return { entries: body.map(make), groupCards: [], skipped: [] };
}

/** About how much CSV text parseContactsCsvSliced reads at a time. */
const CSV_SLICE = 16 * 1024;

/**
 * Where a slice of `text` from `from` may end: after a line break at or past `from + size` outside any quoted
 * field (an even number of `"` since `from`, as `""` counts two), or the end of the text.
 */
function sliceEnd(text: string, from: number, size: number): number {
  let quotes = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) quotes++;
    else if (c === 0x0a && i - from >= size && quotes % 2 === 0) return i + 1;
  }
  return text.length;
}

/**
 * parseContactsCsv a slice of whole records at a time (csv-parse on each), `pause` called between slices: a 5 MB
 * file does not hold the event loop while it is read (issue 28).
 */
export async function parseContactsCsvSliced(text: string, pause: () => Promise<void>): Promise<ParsedFile> {
  const firstLine = text.split(/\r\n|\n|\r/, 1)[0] ?? '';
  const options = { ...CSV_OPTIONS, delimiter: delimiterOf(firstLine) };
  const entries: ImportEntry[] = [];
  let make: ((row: string[], i: number) => ImportEntry) | undefined;
  for (let at = 0; at < text.length;) {
    const end = sliceEnd(text, at, CSV_SLICE);
    const rows = parse(text.slice(at, end), { ...options, bom: at === 0 }) as string[][];
    await pause();
    for (const row of rows) {
      if (!make) make = entryMaker(row);
      else entries.push(make(row, entries.length));
    }
    at = end;
    await pause();
  }
  return { entries, groupCards: [], skipped: [] };
}
