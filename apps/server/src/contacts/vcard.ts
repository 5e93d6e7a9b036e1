import ICAL from 'ical.js';
import type { VcardProperty } from '../core/db/index.js';
import { isoDate, uidKey, type GroupCard, type ImportEntry, type ParsedFile } from './import-entry.js';
import { vcardCards, type CardText } from './vcard-prepass.js';

/**
 * vCard files read with ical.js (3.0 and 4.0; 2.1 through our pre-pass, vcard-prepass.ts) into import entries, and
 * contacts written back as one vCard 4.0 file. What the address book shows becomes columns; every other property is
 * kept as jCard in vCard 4.0 form and written out again on export, so an import and an export lose nothing of it.
 */

type Params = Record<string, string | string[]>;

/*
 * RFC 6350 §4: a URI value is written as it is (`PHOTO:data:image/png;base64,iVBOR…`), not escaped as text; ical.js's
 * vCard 4.0 design escapes its commas (`base64\,`), which other address books read as a broken URI and drop. Its
 * reading unescapes them, so files we wrote before still read back.
 */
const vcardValues = (ICAL.design as unknown as { vcard: { value: Record<string, object> } }).vcard.value;
vcardValues.uri = { ...vcardValues.uri, toICAL: (value: string) => value.replace(/[\r\n]/g, '') };
type JCardProperty = [string, Params, string, ...unknown[]];

/** Properties that are columns, group structure, or ours to write: not kept as they are. */
const HANDLED = new Set([
  'version',
  'prodid',
  'rev',
  'n',
  'fn',
  'email',
  'tel',
  'bday',
  'note',
  'categories',
  'kind',
  'member',
  'x-addressbookserver-kind',
  'x-addressbookserver-member',
  'agent',
]);

const text = (value: unknown): string =>
  Array.isArray(value) ? value.map(text).filter(Boolean).join(' ') : value == null ? '' : String(value);
const lower = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : '');

/** A parameter's values, lowercased. */
function paramValues(params: Params, name: string): string[] {
  const value = params[name];
  return (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) =>
    String(v).toLowerCase().split(','),
  );
}

/** How much a property is preferred: PREF=n (4.0), TYPE=pref (3.0) as 1, else none (100). */
function preference(params: Params): number {
  const pref = Number(paramValues(params, 'pref')[0]);
  if (Number.isFinite(pref) && pref > 0) return pref;
  return paramValues(params, 'type').includes('pref') ? 1 : 100;
}

/** The properties in preference order, the first written first among equals. */
const byPreference = (props: JCardProperty[]) =>
  props
    .map((p, i) => ({ p, i }))
    .sort((a, b) => preference(a.p[1]) - preference(b.p[1]) || a.i - b.i)
    .map((x) => x.p);

/**
 * A kept property in vCard 4.0 form: 3.0's value types that 4.0 lacks become theirs (phone-number → text, inline
 * binary → a data: URI), TYPE=pref becomes PREF=1, ENCODING goes.
 */
function as40(prop: JCardProperty): VcardProperty {
  const [name, params, type, ...values] = prop;
  const out: Params = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === 'encoding') continue;
    if (key === 'type') {
      const types = (Array.isArray(value) ? value : [value]).filter((t) => t.toLowerCase() !== 'pref');
      if (types.length !== (Array.isArray(value) ? value.length : 1)) out.pref = '1';
      if (types.length) out.type = types.length === 1 ? types[0]! : types;
      continue;
    }
    out[key] = value;
  }
  if (type === 'phone-number') return [name, out, 'text', ...values];
  if (type === 'binary') {
    const mime = paramValues(params, 'type')[0] ?? 'octet-stream';
    delete out.type;
    const media = mime.includes('/') ? mime : `image/${mime}`;
    return [name, out, 'uri', ...values.map((v) => `data:${media};base64,${String(v)}`)];
  }
  return [name, out, type, ...values];
}

/** The jCard components of a card's text (ical.js gives one component bare, several as a list). */
function components(cardText: string): unknown[] {
  const parsed = ICAL.parse(cardText) as unknown[];
  return typeof parsed[0] === 'string' ? [parsed] : parsed;
}

function entryOf(entry: number, props: JCardProperty[]): ImportEntry | GroupCard {
  const all = (name: string) => props.filter((p) => p[0] === name);
  const first = (name: string) => all(name)[0];
  const kind = lower(first('kind')?.[3]) || lower(first('x-addressbookserver-kind')?.[3]);
  const fn = text(first('fn')?.[3]).trim();
  const n = first('n');
  const nParts = Array.isArray(n?.[3])
    ? (n[3] as unknown[]).map((v) => text(v).trim())
    : [text(n?.[3]).trim()];
  const uidProp = first('uid');
  const uid = uidProp ? uidKey(text(uidProp[3])) : null;

  if (kind === 'group') {
    const members = [...all('member'), ...all('x-addressbookserver-member')].map((p) => {
      const ref = text(p[3]).trim();
      return /^mailto:/i.test(ref) ? `email:${ref.slice(7).toLowerCase()}` : `uid:${uidKey(ref)}`;
    });
    return { entry, name: fn || nParts.filter(Boolean).join(' '), members };
  }

  const kept: VcardProperty[] = [];
  const surname = nParts[0] ?? '';
  let name = nParts[1] ?? '';
  if (!name && !surname) name = fn;
  // N's other parts (middle name, prefix, suffix) and an FN other than "name surname" are kept, for export.
  if (n && nParts.slice(2).some(Boolean)) kept.push(as40(n));
  if (fn && fn !== [name, surname].filter(Boolean).join(' ')) kept.push(as40(first('fn')!));

  const emails = byPreference(all('email')).map((p) =>
    text(p[3])
      .trim()
      .replace(/^mailto:/i, ''),
  );
  const phones = byPreference(all('tel'));
  const phone = phones[0] ? text(phones[0][3]).trim().replace(/^tel:/i, '') : '';
  for (const extra of phones.slice(1)) kept.push(as40(extra));

  let birthday: string | null = null;
  for (const bday of all('bday')) {
    // Apple writes a birthday without a year as 1604-MM-DD with X-APPLE-OMIT-YEAR: kept as written.
    const date = 'x-apple-omit-year' in bday[1] ? null : isoDate(text(bday[3]));
    if (date && birthday === null) birthday = date;
    else kept.push(as40(bday));
  }
  if (kind && kind !== 'individual') kept.push(as40(first('kind')!));

  for (const p of props) if (!HANDLED.has(p[0])) kept.push(as40(p));

  return {
    entry,
    name: name.trim(),
    surname: surname.trim(),
    emails: emails.filter(Boolean),
    phone,
    birthday,
    notes: all('note')
      .map((p) => text(p[3]))
      .join('\n'),
    groups: all('categories').flatMap((p) =>
      p
        .slice(3)
        .flatMap((v) => (Array.isArray(v) ? v.map(text) : [text(v)]))
        .map((g) => g.trim()),
    ),
    properties: kept,
    uid,
  };
}

/** Every card of a vCard file as an entry or a group card; a card ical.js cannot read is skipped, with why. */
export function parseVcards(file: Buffer): ParsedFile {
  const result: ParsedFile = { entries: [], groupCards: [], skipped: [] };
  for (const card of vcardCards(file)) readCard(card, result);
  return result;
}

/** parseVcards with `pause` called after each card, so a large file does not hold the event loop (issue 28). */
export async function parseVcardsSliced(file: Buffer, pause: () => Promise<void>): Promise<ParsedFile> {
  const result: ParsedFile = { entries: [], groupCards: [], skipped: [] };
  for (const card of vcardCards(file)) {
    readCard(card, result);
    await pause();
  }
  return result;
}

function readCard(card: CardText, result: ParsedFile): void {
  if (card.skip) {
    result.skipped.push({ entry: card.entry, reason: card.skip });
    return;
  }
  let jcards: unknown[];
  try {
    jcards = components(card.text);
  } catch (err) {
    result.skipped.push({
      entry: card.entry,
      reason: `unreadable: ${(err as Error).message}`.slice(0, 200),
    });
    return;
  }
  for (const jcard of jcards) {
    const props = ((jcard as unknown[])[1] ?? []) as JCardProperty[];
    const read = entryOf(card.entry, props);
    if ('members' in read) result.groupCards.push(read);
    else result.entries.push(read);
  }
}

/** A contact as export writes it: what an import reads, but its place in the file and its UID. */
export type ExportContact = Omit<ImportEntry, 'entry' | 'uid'>;

/** Contacts as one vCard 4.0 file (CRLF lines, folded at 75 octets by ical.js). */
export function writeVcards(contacts: ExportContact[]): string {
  return contacts
    .map((c) => {
      const keptN = c.properties.find((p) => p[0] === 'n');
      const keptFn = c.properties.find((p) => p[0] === 'fn');
      const full = [c.name, c.surname].filter(Boolean).join(' ');
      const nValue = Array.isArray(keptN?.[3]) ? [...(keptN[3] as unknown[])] : ['', '', '', '', ''];
      nValue[0] = c.surname;
      nValue[1] = c.name;
      const props: VcardProperty[] = [
        ['version', {}, 'text', '4.0'],
        ['prodid', {}, 'unknown', '-//Mailroom//Contacts//EN'],
        keptFn ?? ['fn', {}, 'text', full || c.emails[0] || ''],
        ['n', keptN?.[1] ?? {}, 'text', nValue],
        ...c.emails.map((email, i): VcardProperty => ['email', i === 0 ? { pref: '1' } : {}, 'text', email]),
      ];
      if (c.phone) props.push(['tel', {}, 'text', c.phone]);
      if (c.birthday) props.push(['bday', {}, 'date', c.birthday]);
      if (c.notes) props.push(['note', {}, 'text', c.notes]);
      if (c.groups.length) props.push(['categories', {}, 'text', ...c.groups]);
      // One by one: a spread of a long list into push() overflows the call stack.
      for (const p of c.properties) if (p[0] !== 'n' && p[0] !== 'fn') props.push(p);
      return new ICAL.Component(['vcard', props, []]).toString();
    })
    .join('\r\n')
    .concat(contacts.length ? '\r\n' : '');
}
