/** One address from a header or the envelope. */
export interface ParsedAddress {
  localpart: string;
  domain: string;
}

type Tok = { t: 'word' | 'quoted' | 'literal'; v: string } | { t: '<' | '>' | ',' | ':' | ';' | '@' | '.' };

const specials = '<>,:;@.()[]"\\';

function lex(text: string): Tok[] | null {
  const out: Tok[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
      i++;
    } else if (c === '(') {
      let depth = 0;
      do {
        if (text[i] === '\\') i++;
        else if (text[i] === '(') depth++;
        else if (text[i] === ')') depth--;
        i++;
      } while (depth > 0 && i < text.length);
      if (depth > 0) return null;
    } else if (c === '"') {
      let v = '';
      i++;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') i++;
        v += text[i] ?? '';
        i++;
      }
      if (i >= text.length) return null;
      i++;
      out.push({ t: 'quoted', v });
    } else if (c === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) return null;
      out.push({ t: 'literal', v: text.slice(i, end + 1) });
      i = end + 1;
    } else if ('<>,:;@.'.includes(c)) {
      out.push({ t: c as '<' });
      i++;
    } else if (c === ')' || c === '\\') {
      return null;
    } else {
      let v = '';
      while (i < text.length && !specials.includes(text[i]!) && !' \t\r\n'.includes(text[i]!)) v += text[i++];
      out.push({ t: 'word', v });
    }
  }
  return out;
}

function addrSpec(toks: Tok[]): ParsedAddress | null {
  // Routes ("@a,@b:") are dropped.
  const colon = toks.findIndex((t) => t.t === ':');
  if (colon >= 0 && toks[0]?.t === '@') toks = toks.slice(colon + 1);
  const at = toks.map((t) => t.t).lastIndexOf('@');
  const text = (list: Tok[]) =>
    list
      .map((t) =>
        t.t === 'word' || t.t === 'quoted' || t.t === 'literal' ? t.v : t.t === '.' ? '.' : '\u0000',
      )
      .join('');
  // An address needs its domain (RFC 5322 addr-spec): "MAILER-DAEMON" alone is no address.
  if (at < 0) return null;
  const local = text(toks.slice(0, at));
  const domain = text(toks.slice(at + 1));
  if (!local || !domain || local.includes('\u0000') || domain.includes('\u0000')) return null;
  return { localpart: local, domain };
}

/**
 * Reads an address-list header value (RFC 5322 §3.4): display names, comments and groups are
 * dropped, leaving each address's local part and domain. Null when the value is not an address list.
 */
export function parseAddressList(value: string): ParsedAddress[] | null {
  const toks = lex(value);
  if (!toks) return null;
  const result: ParsedAddress[] = [];
  let item: Tok[] = [];
  let inAngle = false;
  let angle: Tok[] | null = null;
  const finish = (): boolean => {
    if (angle) {
      if (!angle.length) return true; // "<>": no address
      const a = addrSpec(angle);
      if (!a) return false;
      result.push(a);
    } else if (item.length) {
      const a = addrSpec(item);
      if (!a) return false;
      result.push(a);
    }
    item = [];
    angle = null;
    return true;
  };
  for (const tok of toks) {
    if (inAngle) {
      if (tok.t === '>') inAngle = false;
      else angle!.push(tok);
      continue;
    }
    if (tok.t === '<') {
      inAngle = true;
      angle = [];
      item = [];
    } else if (tok.t === ',' || tok.t === ';') {
      if (!finish()) return null;
    } else if (tok.t === ':' && !angle && !item.some((t) => t.t === '@')) {
      item = []; // a group's name
    } else if (!angle) item.push(tok);
  }
  if (inAngle || !finish()) return null;
  return result;
}

/** Whether text is one address as redirect and vacation :from need (local@domain, optionally "Name <…>"). */
export function isValidAddress(text: string): boolean {
  const list = parseAddressList(text);
  return !!list && list.length === 1 && !/[\s]/.test(list[0]!.localpart + list[0]!.domain);
}
