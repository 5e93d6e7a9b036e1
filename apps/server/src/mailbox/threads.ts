import { sql } from 'kysely';
import type { Db } from '../core/db/index.js';
import type { ParsedMessage } from './parse/message-text.js';

const replyPrefix = /^\s*((re|fwd?|aw|wg|sv|vs|ответ|отв|пересл|tr)(\[\d+\]|\(\d+\))?\s*:\s*)+/i;

/** The subject a thread is known by: reply and forward prefixes stripped, spaces folded, lowercased. */
export function threadSubject(subject: string): string {
  let s = subject;
  for (let previous = ''; previous !== s;) {
    previous = s;
    s = s.replace(replyPrefix, '');
  }
  return s.replace(/\s+/g, ' ').trim().toLowerCase().slice(0, 500);
}

function correspondents(parsed: ParsedMessage): string[] {
  const a = parsed.addresses;
  return [...(a.from ?? []), ...(a.to ?? []), ...(a.cc ?? [])].map((x) => x.email);
}

/**
 * The thread a new message joins: the thread of a message it answers (In-Reply-To, then
 * References, newest first); failing that, a recent message with the same thread subject
 * between the same correspondents. Undefined means it starts its own thread.
 */
export async function findThread(
  db: Db,
  accountId: number,
  parsed: ParsedMessage,
): Promise<number | undefined> {
  const answered = [parsed.inReplyTo, ...[...parsed.references].reverse()].filter((x): x is string => !!x);
  if (answered.length) {
    const row = await db
      .selectFrom('messages')
      .select('thread_id')
      .where('account_id', '=', accountId)
      .where('message_id', 'in', answered.slice(0, 50))
      .limit(1)
      .executeTakeFirst();
    if (row) return row.thread_id;
  }
  const subject = threadSubject(parsed.subject);
  const people = correspondents(parsed);
  if (!subject || !people.length || subject === parsed.subject.trim().toLowerCase()) return undefined;
  // Only a reply-looking subject ("Re: …") falls back to subject matching; a fresh "Hello" starts anew.
  const row = await db
    .selectFrom('messages')
    .select('thread_id')
    .where('account_id', '=', accountId)
    .where('thread_subject', '=', subject)
    .where('received_at', '>', sql<Date>`now() - interval '90 days'`)
    // Written by one of the people on this message: covers both the other side and our own sent copy.
    .where('from_email', 'in', people.slice(0, 100))
    .orderBy('received_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.thread_id;
}
