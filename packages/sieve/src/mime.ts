/** Header decoding the tests need: RFC 2047 encoded words, dates (RFC 5322 §3.3). Browser APIs only. */

function decodeBytes(bytes: Uint8Array, charset: string): string | null {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(bytes);
  } catch {
    return null;
  }
}

function qDecode(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '_') out.push(0x20);
    else if (c === '=' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else out.push(...new TextEncoder().encode(c));
  }
  return new Uint8Array(out);
}

function bDecode(text: string): Uint8Array | null {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  try {
    const bin = atob(clean + '='.repeat((4 - (clean.length % 4)) % 4));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

const encodedWord = /=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=/g;

/**
 * Decodes RFC 2047 encoded words in an unstructured header value; whitespace between two encoded
 * words goes. A word in an unknown charset or badly encoded stays as written.
 */
export function decodeMimeWords(value: string): string {
  if (!value.includes('=?')) return value;
  let out = '';
  let last = 0;
  let prevWasWord = false;
  for (const m of value.matchAll(encodedWord)) {
    const between = value.slice(last, m.index);
    const charset = m[1]!.split('*')[0]!;
    const bytes = m[2]!.toUpperCase() === 'B' ? bDecode(m[3]!) : qDecode(m[3]!);
    const decoded = bytes ? decodeBytes(bytes, charset) : null;
    if (decoded === null) {
      out += between + m[0];
      prevWasWord = false;
    } else {
      out += prevWasWord && /^[ \t\r\n]*$/.test(between) ? '' : between;
      out += decoded;
      prevWasWord = true;
    }
    last = m.index + m[0].length;
  }
  return out + value.slice(last);
}

/** A moment with the zone it was written in (minutes east of UTC). */
export interface ZonedDate {
  /** Milliseconds since the epoch. */
  time: number;
  offsetMinutes: number;
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const namedZones: Record<string, number> = {
  ut: 0,
  gmt: 0,
  z: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};

/** Reads an RFC 5322 date-time ("Tue, 1 Jul 2003 10:52:37 +0200"); null when it is not one. */
export function parseRfc5322Date(value: string): ZonedDate | null {
  const text = value
    .replace(/\([^()]*\)/g, ' ')
    .trim()
    .toLowerCase();
  const m =
    /^(?:[a-z]{3}\s*,\s*)?(\d{1,2})\s+([a-z]{3})\s+(\d{2,4})\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([+-]\d{4}|[a-z]+)?\s*$/.exec(
      text,
    );
  if (!m) return null;
  const day = Number(m[1]);
  const month = months.indexOf(m[2]!);
  let year = Number(m[3]);
  if (m[3]!.length === 2) year += year < 50 ? 2000 : 1900;
  else if (m[3]!.length === 3) year += 1900;
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = m[6] ? Number(m[6]) : 0;
  if (month < 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  let offset = 0;
  const zone = m[7];
  if (zone) {
    if (/^[+-]\d{4}$/.test(zone)) {
      const mins = Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5));
      offset = zone[0] === '-' ? -mins : mins;
    } else offset = namedZones[zone] ?? 0;
  }
  const time = Date.UTC(year, month, day, hour, minute, second) - offset * 60_000;
  return { time, offsetMinutes: offset };
}

/** "+0200" → 120; null when it is not a zone of that form. */
export function parseZone(zone: string): number | null {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(zone);
  if (!m || Number(m[3]) > 59) return null;
  const mins = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -mins : mins;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
export function formatZone(offset: number): string {
  const a = Math.abs(offset);
  return `${offset < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}${pad(a % 60)}`;
}

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const monthNames = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 5260 §4.2 date parts of a moment seen in a zone; null for an unknown part. */
export function datePart(date: ZonedDate, part: string): string | null {
  const local = new Date(date.time + date.offsetMinutes * 60_000);
  const y = local.getUTCFullYear();
  const mo = local.getUTCMonth() + 1;
  const d = local.getUTCDate();
  const h = local.getUTCHours();
  const mi = local.getUTCMinutes();
  const s = local.getUTCSeconds();
  const zone = formatZone(date.offsetMinutes);
  switch (part.toLowerCase()) {
    case 'year':
      return pad(y, 4);
    case 'month':
      return pad(mo);
    case 'day':
      return pad(d);
    case 'date':
      return `${pad(y, 4)}-${pad(mo)}-${pad(d)}`;
    case 'julian':
      // Modified Julian Day: days since 1858-11-17.
      return String(Math.floor((Date.UTC(y, mo - 1, d) - Date.UTC(1858, 10, 17)) / 86_400_000));
    case 'hour':
      return pad(h);
    case 'minute':
      return pad(mi);
    case 'second':
      return pad(s);
    case 'time':
      return `${pad(h)}:${pad(mi)}:${pad(s)}`;
    case 'iso8601':
      // UTC is written "Z", as Pigeonhole does.
      return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${date.offsetMinutes === 0 ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(3)}`}`;
    case 'std11':
      return `${weekdays[local.getUTCDay()]}, ${pad(d)} ${monthNames[mo - 1]} ${pad(y, 4)} ${pad(h)}:${pad(mi)}:${pad(s)} ${zone}`;
    case 'zone':
      return zone;
    case 'weekday':
      return String(local.getUTCDay());
    default:
      return null;
  }
}

/**
 * A folded header value on one line (RFC 5322 §2.2.3) as Dovecot gives it: the line break goes, a tab
 * that began the continuation line becomes a space; white space around the value goes.
 */
export function unfold(value: string): string {
  return value
    .replace(/\r?\n\t/g, ' ')
    .replace(/\r?\n(?=[ ])/g, '')
    .replace(/^[ \t]+|[ \t\r\n]+$/g, '');
}

const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : whole;
    }
    return namedEntities[e.toLowerCase()] ?? whole;
  });
}

/**
 * HTML as `body :text` sees it, the way Dovecot's html2text renders it: text kept as written with
 * its entities decoded, each tag (or run of tags) a single space unless the text so far ends in
 * white space or is empty; scripts, styles and comments dropped.
 */
export function htmlToText(html: string): string {
  let out = '';
  const gap = () => {
    if (out && !/\s$/.test(out)) out += ' ';
  };
  const re = /<!--[\s\S]*?(?:-->|$)|<(script|style)\b[\s\S]*?(?:<\/\1\s*>|$)|<[^>]*>?/gi;
  let last = 0;
  for (const m of html.matchAll(re)) {
    out += decodeEntities(html.slice(last, m.index));
    gap();
    last = m.index + m[0].length;
  }
  return out + decodeEntities(html.slice(last));
}
