/** Pure validation rules of SPEC §5, shared by the server and the web client. */

const memberIdPattern = /^\d{12}$/;

/**
 * A member ID is exactly 12 ASCII digits. The is* checks return plain booleans, not type predicates:
 * a predicate on a string argument would narrow it to never where the check fails.
 */
export function isMemberId(value: unknown): boolean {
  return typeof value === 'string' && memberIdPattern.test(value);
}

// RFC 5321 limits: 254 for a whole forward path, 64 for the local part, 63 for a domain label.
const EMAIL_MAX_LENGTH = 254;
const LOCAL_PART_MAX_LENGTH = 64;
// Printable characters that need quoting in a local part are refused rather than supported.
const localPartPattern = /^[^\s\p{Cc}@<>()[\]\\,;:"]+$/u;
const domainLabelPattern = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;
const topLevelLabelPattern = /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/iu;

/** An address with one '@', a local part and a domain of at least two labels (IDN letters allowed). */
export function isEmail(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.indexOf('@');
  if (at <= 0 || at !== value.lastIndexOf('@')) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > LOCAL_PART_MAX_LENGTH || !localPartPattern.test(local)) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  const topLevel = labels[labels.length - 1] ?? '';
  return labels.every((label) => domainLabelPattern.test(label)) && topLevelLabelPattern.test(topLevel);
}

export interface SplitRecipients {
  valid: string[];
  invalid: string[];
}

/**
 * Splits typed recipient text on whitespace, commas and semicolons (SPEC §5). A piece wrapped in
 * angle brackets is unwrapped. Valid addresses are kept once each (compared case-insensitively),
 * in the order typed; invalid pieces are kept as typed so the field can flag them.
 */
export function splitRecipients(text: string): SplitRecipients {
  const valid: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const piece of text.split(/[\s,;]+/u)) {
    if (piece === '') continue;
    const address = /^<[^<>]*>$/.test(piece) ? piece.slice(1, -1) : piece;
    if (!isEmail(address)) {
      invalid.push(piece);
      continue;
    }
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    valid.push(address);
  }
  return { valid, invalid };
}

const REDIRECT_PATH_MAX_LENGTH = 2000;
// Enough for any sane path; something still changing after this many rounds is refused.
const MAX_DECODE_ROUNDS = 5;
const redirectBase = 'https://mailroom.invalid';

/** Decodes %XX escapes; runs that are not valid UTF-8 are decoded byte by byte, a stray '%' stays. */
function decodeOnce(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) =>
        String.fromCharCode(parseInt(hex, 16)),
      );
    }
  });
}

/** A path-absolute reference: one '/' not followed by another '/' or '\', which browsers read as a host. */
function isPathAbsolute(text: string): boolean {
  if (!/^\/(?![/\\])/.test(text) || /[\p{Cc}\p{Zl}\p{Zp}\\]/u.test(text)) return false;
  let url: URL;
  try {
    url = new URL(text, redirectBase);
  } catch {
    return false;
  }
  return url.origin === redirectBase && !url.pathname.startsWith('//');
}

/**
 * True only for a same-origin relative path such as '/mail/inbox?page=2'. The text is decoded repeatedly
 * and every form must be a plain path, so '/%2F%2Fevil.example' or '/%5Cevil.example' are refused even
 * if some layer (a cookie parser, a proxy) decodes it once more before it reaches a Location header.
 * Whitespace anywhere in the raw text is refused: browsers drop tabs and newlines, which turns '/\t/x' into '//x'.
 */
export function isSafeRedirectPath(path: unknown): boolean {
  if (typeof path !== 'string' || path.length > REDIRECT_PATH_MAX_LENGTH) return false;
  if (/[\s\p{Cc}]/u.test(path)) return false;
  // Printable ASCII only: a browser keeps a path percent-encoded, a Location header cannot carry anything else,
  // and look-alikes such as '／', '∕' or '。' are read as '/' and '.' by some layers.
  if (/[^\x21-\x7e]/.test(path)) return false;
  let current = path;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (!isPathAbsolute(current)) return false;
    const decoded = decodeOnce(current);
    if (decoded === current) return true;
    current = decoded;
  }
  return false;
}

/** The path itself when it is a safe redirect target, else the fallback. */
export function safeRedirectPath(path: unknown, fallback = '/mail'): string {
  return typeof path === 'string' && isSafeRedirectPath(path) ? path : fallback;
}
