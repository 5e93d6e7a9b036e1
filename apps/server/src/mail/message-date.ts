import { sql, type RawBuilder } from 'kysely';

/**
 * The date a message shows (lists, the reader, date search): its own Date header, written by the sender, unless
 * that is missing or absurd; then its arrival. A sender's clock may run a little fast, so a Date up to an hour after
 * the arrival still counts; later than that, or before 1980, it is nonsense (or spam dating itself to the top).
 * Lists stay in arrival order: a message written in 2023 and delivered today is new mail.
 */
const SKEW_MS = 60 * 60 * 1000;
const EARLIEST = new Date('1980-01-01T00:00:00Z');

export function messageDate(sentAt: Date | null, receivedAt: Date): Date {
  if (sentAt === null || sentAt < EARLIEST || sentAt.getTime() > receivedAt.getTime() + SKEW_MS)
    return receivedAt;
  return sentAt;
}

/** messageDate in SQL, over the `messages` row named `table`. */
export function messageDateSql(table = 'messages'): RawBuilder<Date> {
  const sent = sql.ref(`${table}.sent_at`);
  const received = sql.ref(`${table}.received_at`);
  return sql<Date>`(case when ${sent} >= ${EARLIEST}::timestamptz
    and ${sent} <= ${received} + ${`${SKEW_MS} milliseconds`}::interval then ${sent} else ${received} end)`;
}

/** Arrival can be at most the skew before the shown date: a bound the arrival-time indexes can use. */
export function earliestArrivalFor(shownSince: Date): Date {
  return new Date(shownSince.getTime() - SKEW_MS);
}
