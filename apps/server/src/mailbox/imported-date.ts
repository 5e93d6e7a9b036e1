/** The date a message brought from elsewhere keeps (collectors, imports): pure. */

const EARLIEST = Date.UTC(1980, 0, 1);
const SKEW_MS = 3600_000;

/**
 * The date an imported message keeps: the sender's (its Date header) unless that is missing or absurd (before 1980,
 * or later than the server received it plus an hour), then the server's INTERNALDATE, then now.
 */
export function importedDate(sentAt: Date | null, internalDate: Date | null, now = new Date()): Date {
  const received = internalDate && !Number.isNaN(internalDate.getTime()) ? internalDate : null;
  const limit = (received ?? now).getTime() + SKEW_MS;
  if (sentAt && !Number.isNaN(sentAt.getTime()) && sentAt.getTime() >= EARLIEST && sentAt.getTime() <= limit)
    return sentAt;
  return received ?? now;
}
