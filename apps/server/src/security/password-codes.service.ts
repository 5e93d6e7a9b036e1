import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';
import { CODE_TTL_SECONDS, type PasswordSetRequest, type SecurityResponse } from '@mailroom/protocol';
import { transact } from '../core/db/index.js';
import { DomainError } from '../core/errors.js';
import { requireAccount, type AccountRow } from '../accounts/index.js';
import { grantPasswordAccess, passwordAccessAccount } from '../addresses/index.js';
import { announceEndedSessions, deleteSessionsWhere } from '../auth/index.js';
import {
  countWrongCode,
  lockCodeDay,
  lockPasswordCode,
  markCodeUsed,
  replacePasswordCode,
  takeBackPasswordCode,
} from './password-codes.repository.js';
import { getSecurity, tellPart, type SecurityDeps } from './security.service.js';

/** Wrong codes that end a code. */
export const CODE_MAX_ATTEMPTS = 5;
/** A new code at most this often. */
export const CODE_RESEND_MS = 60_000;
/** The window of PASSWORD_CODES_PER_DAY: 24 hours from the first code. */
const CODE_DAY_MS = 24 * 3600_000;

type Purpose = 'new' | 'change';

/**
 * Codes are stored as an HMAC under a key derived from the deployment's secret: six digits are a million guesses, so a
 * plain hash read from a copy of the database would give the code away at once.
 */
function codeHash(secret: string, accountId: number, code: string): string {
  const key = Buffer.from(hkdfSync('sha256', secret, 'mailroom', 'password confirmation codes v1', 32));
  return createHmac('sha256', key).update(`${accountId}:${code}`).digest('base64url');
}

async function hasPassword(deps: SecurityDeps, account: AccountRow): Promise<boolean> {
  return (await passwordAccessAccount(deps.db, account.email)) === account.id;
}

/** password/new only while there is no password, password/change only while there is one. */
async function requirePurpose(deps: SecurityDeps, account: AccountRow, purpose: Purpose): Promise<void> {
  const has = await hasPassword(deps, account);
  if (has !== (purpose === 'change'))
    throw new DomainError(
      'invalid_request_params',
      has ? 'The mailbox already has a password: change it' : 'The mailbox has no password yet: set one',
    );
}

const codeTexts = {
  en: (code: string) => ({
    title: 'Mailbox password code',
    text: `Your code for the mailbox password: ${code}. It is valid for ${CODE_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore it and check your sign-in log.`,
  }),
  ru: (code: string) => ({
    title: 'Код для пароля почтового ящика',
    text: `Ваш код для пароля почтового ящика: ${code}. Он действует ${CODE_TTL_SECONDS / 60} минут. Если вы его не запрашивали, не сообщайте его никому и проверьте журнал входов.`,
  }),
};

const lockTexts = {
  en: (until: Date) => ({
    title: 'Mailbox password codes locked',
    text: `That was the last code for the mailbox password for today: no new code until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC. If you did not ask for these codes, someone may be trying to set your mailbox password: check your sign-in log.`,
  }),
  ru: (until: Date) => ({
    title: 'Коды для пароля ящика заблокированы',
    text: `Это был последний код для пароля почтового ящика на сегодня: новых кодов не будет до ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC. Если вы не запрашивали эти коды, кто-то может пытаться задать пароль вашего ящика: проверьте журнал входов.`,
  }),
};

/**
 * POST password/sendcode: a fresh 6-digit code (crypto random) replaces the account's previous one and goes to the
 * member's wallet application; at most one a minute (too_many_requests), and at most PASSWORD_CODES_PER_DAY in the 24
 * hours from the day's first: the last one locks the flow until then (password_codes_locked; the wallet application
 * gets a notice with it, the Security screen shows until when). A code the wallet could not take is taken back, so
 * asking again is not held back and it does not count.
 */
export async function sendPasswordCode(
  deps: SecurityDeps,
  accountId: number,
  purpose: Purpose,
  now = new Date(),
): Promise<{ expires_in: number }> {
  const account = await requireAccount(deps.db, accountId);
  await requirePurpose(deps, account, purpose);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const hash = codeHash(deps.secrets.cookieSecret, accountId, code);
  const lockedUntil = await transact(deps.db, async (trx) => {
    const day = await lockCodeDay(trx, accountId);
    if (day.locked_until && day.locked_until > now) throw new DomainError('password_codes_locked');
    if (day.created_at.getTime() > now.getTime() - CODE_RESEND_MS)
      throw new DomainError('too_many_requests', 'A code was sent less than a minute ago');
    const sameDay = day.day_started_at !== null && day.day_started_at.getTime() > now.getTime() - CODE_DAY_MS;
    const startedAt = sameDay ? day.day_started_at! : now;
    const codes = (sameDay ? day.day_codes : 0) + 1;
    const until =
      codes >= deps.config.passwordCodesPerDay ? new Date(startedAt.getTime() + CODE_DAY_MS) : null;
    await replacePasswordCode(
      trx,
      accountId,
      {
        purpose,
        codeHash: hash,
        createdAt: now,
        expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000),
      },
      { startedAt, codes, lockedUntil: until },
    );
    // The Security screen shows until when codes are locked.
    if (until) await tellPart(trx, deps, accountId, 'security');
    return until;
  });
  const language = account.settings.language === 'ru' ? 'ru' : 'en';
  try {
    await deps.wallet.notify(account.member_id, { kind: 'code', ...codeTexts[language](code) });
  } catch (err) {
    await takeBackPasswordCode(deps.db, accountId, hash);
    throw err;
  }
  if (lockedUntil) {
    await deps.wallet
      .notify(account.member_id, { kind: 'security', ...lockTexts[language](lockedUntil) })
      .catch((err: unknown) => deps.log.warn({ err, accountId }, 'password codes locked: notice not sent'));
  }
  return { expires_in: CODE_TTL_SECONDS };
}

/**
 * Uses the account's code for `purpose`: right, unused, unexpired and with tries left, it is spent; a wrong one counts
 * a try (committed, whatever follows). Either way the answer for anything but the right code is the same.
 */
async function spendCode(
  deps: SecurityDeps,
  accountId: number,
  purpose: Purpose,
  code: string,
): Promise<boolean> {
  const now = new Date();
  return transact(deps.db, async (trx) => {
    const row = await lockPasswordCode(trx, accountId);
    if (!row || row.used_at || row.attempts >= CODE_MAX_ATTEMPTS || new Date(row.expires_at) <= now)
      return false;
    const given = Buffer.from(codeHash(deps.secrets.cookieSecret, accountId, code));
    const stored = Buffer.from(row.code_hash);
    if (row.purpose !== purpose || given.length !== stored.length || !timingSafeEqual(given, stored)) {
      await countWrongCode(trx, accountId);
      return false;
    }
    await markCodeUsed(trx, accountId, now);
    return true;
  });
}

/**
 * POST password/new and password/change: with the code of sendcode, the primary address gets the password (scrypt,
 * the password access every address has). A change ends every password session of the address.
 */
export async function setMailboxPassword(
  deps: SecurityDeps,
  accountId: number,
  purpose: Purpose,
  body: PasswordSetRequest,
): Promise<SecurityResponse> {
  const account = await requireAccount(deps.db, accountId);
  if (body.password !== body.password_confirm) throw new DomainError('passwords_do_not_match');
  await requirePurpose(deps, account, purpose);
  if (!(await spendCode(deps, accountId, purpose, body.code)))
    throw new DomainError('request_code_not_found');
  const ended = await transact(deps.db, async (trx) => {
    await grantPasswordAccess(trx, accountId, account.email, body.password);
    await tellPart(trx, deps, accountId, 'security');
    return deleteSessionsWhere(trx, { kind: 'address', accountId, email: account.email });
  });
  await announceEndedSessions(deps, ended);
  return getSecurity(deps.db, accountId);
}
