import { transact, type Db } from '../core/db/index.js';
import { claimRedirectCapNotice, countRedirect, type RedirectPeriod } from './filters.repository.js';

/**
 * What is known of a received message's authenticity and spamminess, in one place: the redirect decision reads only
 * this. Today the only source is the filter itself (a message it files into Junk, or flags `$Junk`, was judged spam
 * by its owner's rules); the SMTP path passes `ReceivedEnvelope.verdict` when it checks SPF/DKIM/DMARC and scores
 * spam (issue 30), and those fields join here.
 */
export interface MessageVerdict {
  /** A spam scorer, or the account's own filter, judged the message spam. */
  spam?: boolean;
  /** DMARC evaluated to fail for the From domain. */
  dmarc?: 'pass' | 'fail' | 'none';
}

/** Why a message may not be redirected at all (mail that failed DMARC or is spam is never forwarded), or null. */
export function redirectRefusal(verdict: MessageVerdict | undefined): string | null {
  if (verdict?.dmarc === 'fail') return 'the message failed DMARC, so it is not forwarded';
  if (verdict?.spam) return 'the message is spam, so it is not forwarded';
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
