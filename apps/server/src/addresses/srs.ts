import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The Sender Rewriting Scheme (SRS0, after Shevek's "Sender Rewriting Scheme" paper and libsrs2) for mail our filters
 * forward (RFC 5321 §3.9: a forwarder sends with its own envelope sender): `sender@origin.example` leaves as
 * `SRS0=HHHHHH=TT=origin.example=sender@MAIL_DOMAIN`, where TT is the day it was made (base32, days mod 1024) and
 * HHHHHH a keyed hash of TT, the domain and the local part — so only addresses we made come back as bounces, and only
 * for MAX_AGE_DAYS. Written here rather than taken from npm: the SRS packages there (srs.js, sender-rewriting-scheme)
 * are single unmaintained releases, and the scheme is a keyed hash and a string format. The hash is HMAC-SHA256 in
 * lower-case base32 (30 bits) rather than libsrs2's case-sensitive base64, so an MTA that folds the case of the
 * address still brings back a valid one. Pure: the key and the clock are the caller's.
 */

const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
const DAY_MS = 86_400_000;
/** How long a rewritten address is accepted back (libsrs2's default). */
export const SRS_MAX_AGE_DAYS = 21;

const dayOf = (now: number) => Math.floor(now / DAY_MS) % 1024;
const stamp = (day: number) => alphabet[(day >> 5) & 31]! + alphabet[day & 31]!;

function hash(key: string, ts: string, domain: string, local: string): string {
  const mac = createHmac('sha256', key).update(`${ts}=${domain}=${local}`.toLowerCase()).digest();
  let bits = mac.readUInt32BE(0) >>> 2;
  let out = '';
  for (let i = 0; i < 6; i++, bits >>>= 5) out = alphabet[bits & 31]! + out;
  return out;
}

const splitAt = (address: string) => {
  const at = address.lastIndexOf('@');
  return at <= 0 ? null : { local: address.slice(0, at), domain: address.slice(at + 1).toLowerCase() };
};

/**
 * The envelope sender a message forwarded from `sender` leaves with: the null sender stays null (nothing to answer),
 * an address already on `srsDomain` (a member's own, or one we rewrote before) stays as it is, any other is rewritten.
 */
export function srsForward(key: string, sender: string, srsDomain: string, now = Date.now()): string {
  if (!sender) return '';
  const parts = splitAt(sender);
  if (!parts || parts.domain === srsDomain.toLowerCase()) return sender;
  const ts = stamp(dayOf(now));
  return `SRS0=${hash(key, ts, parts.domain, parts.local)}=${ts}=${parts.domain}=${parts.local}@${srsDomain}`;
}

export type SrsReverse =
  /** Not an SRS0 address of ours. */
  | { kind: 'none' }
  /** One we made, not expired: the sender it stands for. */
  | { kind: 'valid'; original: string }
  /** Looks like one of ours but its hash or time is wrong: forged, or too old. */
  | { kind: 'invalid' };

/** Reads an address on `srsDomain` back into the sender it stands for, if we made it within SRS_MAX_AGE_DAYS. */
export function srsReverse(key: string, address: string, srsDomain: string, now = Date.now()): SrsReverse {
  const parts = splitAt(address);
  if (!parts || parts.domain !== srsDomain.toLowerCase() || !/^srs0[=+-]/i.test(parts.local))
    return { kind: 'none' };
  const m = /^srs0[=+-]([a-z2-7]{6})=([a-z2-7]{2})=([^=]+)=(.+)$/i.exec(parts.local);
  if (!m) return { kind: 'invalid' };
  const [, given, tsText, domain, local] = m as unknown as [string, string, string, string, string];
  const ts = tsText.toLowerCase();
  const made = (alphabet.indexOf(ts[0]!) << 5) | alphabet.indexOf(ts[1]!);
  const age = (dayOf(now) - made + 1024) % 1024;
  if (age > SRS_MAX_AGE_DAYS) return { kind: 'invalid' };
  const want = Buffer.from(hash(key, ts, domain, local));
  if (!timingSafeEqual(want, Buffer.from(given.toLowerCase()))) return { kind: 'invalid' };
  return { kind: 'valid', original: `${local}@${domain.toLowerCase()}` };
}

/** Made once per process, for deployments wired without secrets (tests of one process). */
const processKey = randomBytes(32).toString('base64url');

/** The SRS key: the deployment's `srsSecret` (derived from SECRET_KEY), else this process's own. */
export const srsKeyOf = (secrets: { srsSecret: string } | undefined): string =>
  secrets?.srsSecret ?? processKey;
