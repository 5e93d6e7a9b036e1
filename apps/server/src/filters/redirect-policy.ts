import { transact, type Db } from '../core/db/index.js';
import type { MessageVerdict } from '../mailbox/index.js';
import { claimRedirectCapNotice, countRedirect, type RedirectPeriod } from './filters.repository.js';

/**
 * Why a message may not be redirected at all, or null: mail that failed DMARC, went to Junk, was scored spam or was
 * judged spam by its owner's own script (`junkByScript`: it filed the message into Junk or flagged it `$Junk`) is
 * never forwarded — forwarding it would spend our reputation on it.
 */
export function redirectRefusal(verdict: MessageVerdict | undefined, junkByScript = false): string | null {
  if (verdict?.auth?.dmarc.result === 'fail' && !verdict.auth.arc.trusted)
    return 'the message failed DMARC, so it is not forwarded';
  if (junkByScript || verdict?.junk) return 'the message is spam, so it is not forwarded';
  return null;
}

export interface RedirectLimits {
  hour: number;
  day: number;
}

export type RedirectClaim =
  | { ok: true }
  /** Over the cap of `period`: `tell` is true the first time in that period (the owner gets one notice). */
  | { ok: false; period: RedirectPeriod; limit: number; tell: boolean };

class OverCap extends Error {
  constructor(readonly period: RedirectPeriod) {
    super(`over the redirect cap of the ${period}`);
  }
}

/**
 * Takes one redirect from the account's caps for this hour and this day, counted in the database (every process
 * shares them): both counts go up together or, past either cap, neither does.
 */
export async function claimRedirect(
  db: Db,
  accountId: number,
  limits: RedirectLimits,
): Promise<RedirectClaim> {
  try {
    await transact(db, async (trx) => {
      if ((await countRedirect(trx, accountId, 'hour')) > limits.hour) throw new OverCap('hour');
      if ((await countRedirect(trx, accountId, 'day')) > limits.day) throw new OverCap('day');
    });
    return { ok: true };
  } catch (err) {
    if (!(err instanceof OverCap)) throw err;
    const tell = await claimRedirectCapNotice(db, accountId, err.period);
    return { ok: false, period: err.period, limit: limits[err.period], tell };
  }
}
