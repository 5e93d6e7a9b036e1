import { decodeBytes, fileCharset } from './charset.js';

/**
 * Our pass over a vCard file before ical.js reads it: ical.js reads vCard 3.0 and 4.0 in UTF-8, while files in the
 * wild (Outlook's above all) are vCard 2.1 with quoted-printable values, soft line breaks, a CHARSET per property
 * (windows-1251) and bare type parameters (`TEL;WORK;VOICE:`). Each card comes out as its own text, in UTF-8, its
 * lines unfolded, every value decoded (quoted-printable and CHARSET, in any version: some 3.0 writers use them too),
 * and a 2.1 card rewritten as 3.0 (`TEL;TYPE=WORK,VOICE:`, ENCODING=b, line breaks in a value as `\n`). Nested
 * cards (a 2.1 AGENT) are left out. Pure: bytes in, texts out.
 */
export interface CardText {
  /** The card's place in the file, from 1. */
  entry: number;
  /** Empty for a card with more than VCARD_PROPERTIES_MAX properties, which is skipped. */
  text: string;
  /** Why the card is not read, when it is not. */
  skip?: string;
}

interface Param {
  /** null for a bare 2.1 parameter (`;WORK`). */
  name: string | null;
  /** As written, quotes and all. */
  value: string;
}

interface Line {
  group: string | null;
  name: string;
  params: Param[];
  value: string;
}

const ENCODINGS = new Set(['QUOTED-PRINTABLE', 'BASE64', 'B', '8BIT', '7BIT']);
const VALUE_KINDS = new Set(['INLINE', 'URL', 'CONTENT-ID', 'CID']);

/** The index of the first `char` outside double quotes, or -1. */
function indexOutsideQuotes(text: string, char: string, from = 0): number {
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === char && !quoted) return i;
  }
  return -1;
}

function splitOutsideQuotes(text: string, char: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (;;) {
    const at = indexOutsideQuotes(text, char, start);
    if (at < 0) break;
    parts.push(text.slice(start, at));
    start = at + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

function parseLine(line: string): Line | null {
  const colon = indexOutsideQuotes(line, ':');
  if (colon <= 0) return null;
  const [head, ...rawParams] = splitOutsideQuotes(line.slice(0, colon), ';');
  const dot = head!.indexOf('.');
  const params = rawParams
    .filter((p) => p.trim() !== '')
    .map((p): Param => {
      const eq = p.indexOf('=');
      return eq < 0
        ? { name: null, value: p.trim() }
        : { name: p.slice(0, eq).trim(), value: p.slice(eq + 1) };
    });
  return {
    group: dot > 0 ? head!.slice(0, dot) : null,
    name: (dot > 0 ? head!.slice(dot + 1) : head!).trim(),
    params,
    value: line.slice(colon + 1),
  };
}

const paramIs = (p: Param, name: string) => p.name !== null && p.name.toUpperCase() === name;
const unquote = (value: string) => value.replace(/^"(.*)"$/, '$1');

/** The ENCODING a property is written in, given as ENCODING=… or bare (2.1), upper-cased; '' when none. */
function encodingOf(params: Param[]): string {
  for (const p of params) {
    if (paramIs(p, 'ENCODING')) return unquote(p.value).toUpperCase();
    if (p.name === null && ENCODINGS.has(p.value.toUpperCase())) return p.value.toUpperCase();
  }
  return '';
}

/** Quoted-printable to bytes (RFC 2045): `=XX` is a byte, a soft break was already joined, the rest is as it is. */
export function decodeQuotedPrintable(text: string): Buffer {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c !== 0x3d || i + 1 < text.length) {
      out.push(c & 0xff);
    }
  }
  return Buffer.from(out);
}

/** Physical lines to logical ones: folding (a line starting with a space or tab) and quoted-printable soft breaks. */
function* unfold(physical: string[]): Generator<string> {
  let pending: string | null = null;
  for (let i = 0; i < physical.length; i++) {
    let line = physical[i]!;
    if (/^[ \t]/.test(line) && pending !== null) {
      pending += line.slice(1);
      continue;
    }
    if (pending !== null) yield pending;
    const qp = () => {
      const colon = indexOutsideQuotes(line, ':');
      return colon > 0 && encodingOf(parseLine(line)?.params ?? []) === 'QUOTED-PRINTABLE';
    };
    while (line.endsWith('=') && i + 1 < physical.length && qp()) line = line.slice(0, -1) + physical[++i]!;
    pending = line;
  }
  if (pending !== null) yield pending;
}

/** Text properties of vCard 3.0 whose value ical.js unescapes; the structured ones keep `;` between their parts. */
const TEXT_PROPERTIES = new Set([
  'FN',
  'NOTE',
  'TITLE',
  'ROLE',
  'LABEL',
  'MAILER',
  'CLASS',
  'SORT-STRING',
  'UID',
]);
const STRUCTURED_PROPERTIES = new Set(['N', 'ADR', 'ORG']);

/**
 * A value decoded from 2.1 (or from quoted-printable) escaped as 3.0 writes it: line breaks as `\n`, and in a text
 * or structured property a comma as a character, not a separator (ical.js reads a `;` of a text property as it is).
 * CATEGORIES and NICKNAME keep their commas: they separate values in 2.1 too.
 */
function escapeValue(name: string, value: string): string {
  const upper = name.toUpperCase();
  const out = value.replace(/\r\n|\r|\n/g, '\\n');
  return STRUCTURED_PROPERTIES.has(upper) || TEXT_PROPERTIES.has(upper)
    ? out.replace(/(?<!\\),/g, '\\,')
    : out;
}

const quoteIfNeeded = (value: string) => (/[:;,]/.test(value) ? `"${value.replace(/"/g, '')}"` : value);

/**
 * One property as a clean line: value decoded (quoted-printable, then its CHARSET or the file's), and for a 2.1
 * card its parameters in 3.0 form.
 */
function rewrite(line: Line, v21: boolean, charset: string): string {
  const encoding = encodingOf(line.params);
  const charsetParam = line.params.find((p) => paramIs(p, 'CHARSET'));
  const named = charsetParam ? unquote(charsetParam.value) : undefined;
  let value: string;
  if (encoding === 'QUOTED-PRINTABLE')
    value = escapeValue(line.name, decodeBytes(decodeQuotedPrintable(line.value), named, charset));
  else if (encoding === 'BASE64' || encoding === 'B') value = line.value.replace(/\s+/g, '');
  else {
    value = decodeBytes(Buffer.from(line.value, 'latin1'), named, charset);
    if (v21) value = escapeValue(line.name, value);
  }

  const head = decodeBytes(
    Buffer.from(line.group ? `${line.group}.${line.name}` : line.name, 'latin1'),
    undefined,
    charset,
  );
  const kept: string[] = [];
  const types: string[] = [];
  for (const p of line.params) {
    if (
      paramIs(p, 'CHARSET') ||
      paramIs(p, 'ENCODING') ||
      (p.name === null && ENCODINGS.has(p.value.toUpperCase()))
    )
      continue;
    const text = decodeBytes(Buffer.from(p.value, 'latin1'), undefined, charset);
    if (!v21) {
      kept.push(p.name === null ? text : `${p.name}=${text}`);
    } else if (p.name === null) {
      if (VALUE_KINDS.has(text.toUpperCase())) {
        if (text.toUpperCase() === 'URL') kept.push('VALUE=uri');
      } else types.push(text);
    } else if (paramIs(p, 'TYPE')) {
      types.push(...unquote(text).split(','));
    } else if (paramIs(p, 'VALUE')) {
      if (unquote(text).toUpperCase() === 'URL') kept.push('VALUE=uri');
      else if (!VALUE_KINDS.has(unquote(text).toUpperCase())) kept.push(`VALUE=${text}`);
    } else {
      kept.push(`${p.name}=${text}`);
    }
  }
  if (types.length) kept.push(`TYPE=${types.map(quoteIfNeeded).join(',')}`);
  if (encoding === 'BASE64' || encoding === 'B') kept.push('ENCODING=b');
  // A NUL (written as a byte, or as quoted-printable =00) is no character a text column or jsonb can hold.
  return ([head, ...kept].join(';') + ':' + value).replaceAll('\u0000', '');
}

/** The properties one card may have; a card with more is skipped (a real one has tens). */
export const VCARD_PROPERTIES_MAX = 1000;

/** Every card of a vCard file, as ical.js-ready UTF-8 text (see the note at the top). */
export function vcardTexts(file: Buffer): CardText[] {
  return [...vcardCards(file)];
}

/** vcardTexts one card at a time, so a caller may let other work run between cards. */
export function* vcardCards(file: Buffer): Generator<CardText> {
  const { bytes, charset } = fileCharset(file);
  const lines = unfold(bytes.toString('latin1').split(/\r\n|\n|\r/));
  let cards = 0;
  let depth = 0;
  let current: Line[] = [];
  for (const raw of lines) {
    const trimmed = raw.trim();
    if (/^BEGIN:VCARD$/i.test(trimmed)) {
      depth++;
      if (depth === 1) current = [];
      continue;
    }
    if (/^END:VCARD$/i.test(trimmed)) {
      if (depth === 1 && current.length > VCARD_PROPERTIES_MAX) {
        yield { entry: ++cards, text: '', skip: `more than ${VCARD_PROPERTIES_MAX} properties` };
      } else if (depth === 1) {
        const version = current.find((l) => l.name.toUpperCase() === 'VERSION')?.value.trim() ?? '2.1';
        const v21 = !['3.0', '4.0'].includes(version);
        const body = current
          .filter((l) => l.name.toUpperCase() !== 'VERSION' && !(v21 && l.name.toUpperCase() === 'AGENT'))
          .map((l) => rewrite(l, v21, charset));
        yield {
          entry: ++cards,
          text: ['BEGIN:VCARD', `VERSION:${v21 ? '3.0' : version}`, ...body, 'END:VCARD', ''].join('\r\n'),
        };
      }
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth !== 1 || trimmed === '') continue;
    // Past the limit the card is skipped: its lines are counted, not kept.
    const line = current.length > VCARD_PROPERTIES_MAX ? null : parseLine(raw);
    if (line) current.push(line);
    else if (current.length > VCARD_PROPERTIES_MAX) current.length = VCARD_PROPERTIES_MAX + 1;
  }
}
