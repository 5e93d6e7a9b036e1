import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { BlobStore } from '../core/blobs/index.js';
import type { Db } from '../core/db/index.js';
import type { EventBus } from '../core/events/index.js';
import { cookieOptions } from '../http/index.js';
import { sendNotice } from '../mailbox/index.js';
import { findAccountByMemberId } from '../accounts/index.js';
import { passwordAccessAccount } from '../addresses/index.js';
import {
  claimAttempt,
  claimNotice,
  clearThrottle,
  deleteQuietThrottles,
  throttleWaitMs,
  type ThrottlePolicy,
} from './sign-in-throttle.repository.js';

/**
 * Password guessing is limited per name, not only per source address (the rate limit), since a
 * botnet has any number of those. Each name (a member ID at the embedded provider, an address
 * with password access) may be got wrong a few times; after that every wrong password makes the
 * next try wait longer (30 s, doubling, at most 15 minutes), while waiting no password is even
 * checked, and the owner gets one notice in their Inbox. A right password starts the count over.
 *
 * So that nobody can keep the owner out by guessing at the cap forever, a browser that has signed
 * in to the name before carries a signed cookie naming it, and counts its own wrong passwords
 * apart from everyone else's (OWASP "device cookies"): strangers wait, the owner's browser does
 * not. The counts are rows in the database, shared by every process.
 */
export const FREE_FAILURES = 5;
const FIRST_WAIT_MS = 30_000;
const MAX_WAIT_MS = 15 * 60_000;
/** Wrong passwords older than this are forgotten, and the owner may be told again after it. */
const QUIET_MS = 24 * 3600_000;

const KNOWN_COOKIE = 'mr_known';
const KNOWN_COOKIE_MAX_AGE_S = 365 * 24 * 3600;
const MAX_KNOWN_NAMES = 10;
const knownSchema = z.object({ d: z.string().max(64), n: z.array(z.string().max(64)).max(MAX_KNOWN_NAMES) });

export type SignInName = { kind: 'member'; memberId: string } | { kind: 'address'; email: string };

export interface ThrottleDeps {
  config: Config;
  db: Db;
  blobs: BlobStore;
  events: EventBus;
}

export type ThrottledResult<T> = { ok: T } | { wrong: true } | { waitMs: number };

const policy: ThrottlePolicy = {
  free: FREE_FAILURES,
  firstWaitMs: FIRST_WAIT_MS,
  maxWaitMs: MAX_WAIT_MS,
  forgetAfterMs: QUIET_MS,
};

const keyOf = (name: SignInName) =>
  name.kind === 'member' ? `member:${name.memberId.trim()}` : `address:${name.email.trim().toLowerCase()}`;
const digest = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

function readKnown(request: FastifyRequest): z.infer<typeof knownSchema> | undefined {
  const raw = request.cookies[KNOWN_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return undefined;
  try {
    const parsed = knownSchema.safeParse(JSON.parse(unsigned.value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks one password for `name` under the throttle. `check` verifies it (undefined: wrong) and
 * is not called while the name must wait.
 */
export async function throttledSignIn<T>(
  deps: ThrottleDeps & {
    log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  },
  http: { request: FastifyRequest; reply: FastifyReply },
  name: SignInName,
  check: () => Promise<T | undefined>,
): Promise<ThrottledResult<T>> {
  const key = keyOf(name);
  const known = readKnown(http.request);
  const fromKnownBrowser = known?.n.includes(digest(key)) ?? false;
  const counted = fromKnownBrowser ? `${key}|browser:${known!.d}` : key;

  const failures = await claimAttempt(deps.db, counted, policy);
  // Held back: no password is checked. The wait read here may have just ended; say at least a second.
  if (failures === undefined) return { waitMs: Math.max(1000, await throttleWaitMs(deps.db, counted)) };

  const result = await check();
  if (result !== undefined) {
    await clearThrottle(deps.db, counted);
    rememberBrowser(deps.config, http, name, known);
    return { ok: result };
  }
  // The name is counted and held back whether or not anyone has it, and the answer does not wait for the notice
  // (found and stored only when the name has an owner): neither the answer nor its time tells whether it exists.
  if (failures >= FREE_FAILURES && (await claimNotice(deps.db, counted, QUIET_MS)))
    void tellOwner(deps, name).catch((err: unknown) =>
      deps.log.error({ err }, 'telling the owner about wrong passwords failed'),
    );
  return { wrong: true };
}

/** After a sign-in that needed no password check (a fresh sign-up): this browser is known too. */
export function rememberBrowser(
  config: Config,
  http: { request: FastifyRequest; reply: FastifyReply },
  signInName: SignInName,
  known = readKnown(http.request),
): void {
  const name = digest(keyOf(signInName));
  const value = {
    d: known?.d ?? randomBytes(16).toString('base64url'),
    n: [name, ...(known?.n ?? []).filter((n) => n !== name)].slice(0, MAX_KNOWN_NAMES),
  };
  http.reply.setCookie(
    KNOWN_COOKIE,
    JSON.stringify(value),
    cookieOptions(config, { maxAge: KNOWN_COOKIE_MAX_AGE_S, signed: true }),
  );
}

/** The retry wait, rounded up to whole seconds (Retry-After) and minutes (what a person reads). */
export function waitText(waitMs: number): { seconds: number; minutes: number } {
  return { seconds: Math.ceil(waitMs / 1000), minutes: Math.max(1, Math.ceil(waitMs / 60_000)) };
}

async function tellOwner(
  deps: ThrottleDeps & { log: { error(obj: object, msg: string): void } },
  name: SignInName,
): Promise<void> {
  const owner =
    name.kind === 'member'
      ? await findAccountByMemberId(deps.db, name.memberId.trim())
      : { id: await passwordAccessAccount(deps.db, name.email), email: name.email.trim().toLowerCase() };
  const accountId = owner?.id;
  if (accountId === undefined) return;
  const what =
    name.kind === 'member'
      ? { en: `your member ID ${name.memberId.trim()}`, ru: `вашего ID участника ${name.memberId.trim()}` }
      : {
          en: `the address ${name.email.trim().toLowerCase()} (password access)`,
          ru: `адреса ${name.email.trim().toLowerCase()} (доступ по паролю)`,
        };
  const en = [
    `Someone entered a wrong password ${FREE_FAILURES} times in a row to sign in with ${what.en}.`,
    `From now on every further wrong password makes the next try wait longer, up to 15 minutes.`,
    `A browser that has signed in with it before is not held back.`,
    `If this was not you, change the password.`,
  ];
  const ru = [
    `Кто-то ${FREE_FAILURES} раз подряд ввёл неверный пароль при входе для ${what.ru}.`,
    `Теперь после каждого следующего неверного пароля новая попытка ждёт дольше, до 15 минут.`,
    `Браузер, из которого уже входили, не задерживается.`,
    `Если это были не вы, смените пароль.`,
  ];
  await sendNotice(deps, deps.config.mailDomain, accountId, {
    to: owner!.email,
    subject: 'Wrong passwords at sign-in / Неверные пароли при входе',
    text: `${en.join('\n')}\n\n---\n\n${ru.join('\n')}\n`,
  });
}

/** The hourly sweep: counts of names nobody got wrong for a day. */
export const deleteQuietSignInThrottles = (db: Db) => deleteQuietThrottles(db, QUIET_MS);
