import { sql, type RawBuilder } from 'kysely';
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

/** What a new message's thread is found by: the messages answered, newest first, and the subject and people of a reply. */
function threadClues(parsed: ParsedMessage): { answered: string[]; subject?: string; people: string[] } {
  const answered = [parsed.inReplyTo, ...[...parsed.references].reverse()].filter((x): x is string => !!x);
  const subject = threadSubject(parsed.subject);
  const people = correspondents(parsed);
  // Only a reply-looking subject ("Re: …") falls back to subject matching; a fresh "Hello" starts anew.
  const reply = subject && people.length && subject !== parsed.subject.trim().toLowerCase();
  return { answered: answered.slice(0, 50), ...(reply ? { subject } : {}), people: people.slice(0, 100) };
}

/**
 * The thread a new message joins, as an expression of the message store's statement (its lookups ride the store's
 * round trip): the thread of a message it answers (In-Reply-To, then References, newest first); failing that, a
 * recent message with the same thread subject between the same correspondents (written by one of the people on
 * this message: covers both the other side and our own sent copy); failing that, a new thread.
 */
export function threadIdSql(accountId: number, parsed: ParsedMessage): RawBuilder<number> {
  const { answered, subject, people } = threadClues(parsed);
  const byAnswer = answered.length
    ? sql`(select thread_id from messages
        where account_id = ${accountId} and message_id = any(${answered}::text[]) limit 1),`
    : sql``;
  const bySubject =
    subject !== undefined
      ? sql`(select thread_id from messages
        where account_id = ${accountId} and thread_subject = ${subject}::text
          and received_at > now() - interval '90 days' and from_email = any(${people}::text[])
        order by received_at desc limit 1),`
      : sql``;
  return sql<number>`coalesce(${byAnswer} ${bySubject} nextval('message_threads_seq'))`;
}

/**
 * Whether a message's thread lookup (threadIdSql) could find one of `earlier` — messages stored by the same
 * statement, which its lookups do not see: such a message goes in a statement of its own after theirs. Wider than
 * the lookup (the subject's 90 days are not looked at): a needless split costs a round trip, never a thread.
 */
export class StatementThreads {
  private readonly messageIds = new Set<string>();
  private readonly subjects = new Set<string>();

  /** Whether `parsed`, for `accountId`, may join a thread of a message added before. */
  joins(accountId: number, parsed: ParsedMessage): boolean {
    const { answered, subject, people } = threadClues(parsed);
    if (answered.some((id) => this.messageIds.has(`${accountId}\n${id}`))) return true;
    return subject !== undefined && people.some((p) => this.subjects.has(`${accountId}\n${subject}\n${p}`));
  }

  add(accountId: number, parsed: ParsedMessage): void {
    if (parsed.messageId) this.messageIds.add(`${accountId}\n${parsed.messageId}`);
    this.subjects.add(
      `${accountId}\n${threadSubject(parsed.subject)}\n${parsed.addresses.from?.[0]?.email ?? ''}`,
    );
  }
}
