import { sql, type RawBuilder } from 'kysely';
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

/** A message of a batch whose thread is looked up (lookUpThreads, batchThreads). */
export interface BatchMessage {
  accountId: number;
  parsed: ParsedMessage;
  receivedAt?: Date | undefined;
}

/** What threadIdSql's lookups find for a message among those stored before its batch. */
interface StoredClues {
  by_answer: number | string | null;
  by_subject: number | string | null;
  subject_at: Date | null;
  now: Date;
  /** A new thread's id, for a message nothing stored before answers (the batch's own may). */
  fresh: number | string | null;
}

const SUBJECT_DAYS = 90;

/**
 * The threads of a batch of new messages stored by one statement (storeMessages), as threadIdSql finds them for each
 * stored one after the other: its lookups run first for the whole batch against the mail stored before it (one
 * query), then each message's clues are matched against those and the batch's messages before it, in order — the
 * thread of a message it answers (among the stored ones first, then the batch's), else the most recent message with
 * its thread subject between the same people within 90 days, else a new thread (its id taken from the sequence by the same query).
 */
export async function batchThreads(db: Db, messages: BatchMessage[]): Promise<number[]> {
  if (!messages.length) return [];
  const clues = messages.map((m) => threadClues(m.parsed));
  const { rows } = await sql<StoredClues>`
    select *, case when by_answer is null and by_subject is null then nextval('message_threads_seq') end as fresh
    from (select c.ord,
      case when cardinality(c.answered) > 0 then
        (select thread_id from messages where account_id = c.account_id and message_id = any(c.answered) limit 1)
      end as by_answer,
      s.thread_id as by_subject, s.received_at as subject_at, now() as now
    from (values ${sql.join(
      messages.map(
        (m, i) =>
          sql`(${i}::int, ${m.accountId}::bigint, ${clues[i]!.answered}::text[], ${clues[i]!.subject ?? null}::text,
            ${clues[i]!.people}::text[])`,
      ),
    )}) as c (ord, account_id, answered, subject, people)
    left join lateral (
      select thread_id, received_at from messages
      where account_id = c.account_id and thread_subject = c.subject
        and received_at > now() - interval '${sql.raw(String(SUBJECT_DAYS))} days' and from_email = any(c.people)
      order by received_at desc limit 1
    ) s on c.subject is not null) as x
    order by ord`.execute(db);
  const threads: number[] = [];
  for (const [j, m] of messages.entries()) {
    const found = rows[j]!;
    const { answered, subject, people } = clues[j]!;
    const now = found.now.getTime();
    const earlier = (match: (k: number) => boolean) => {
      for (let k = j - 1; k >= 0; k--) if (messages[k]!.accountId === m.accountId && match(k)) return k;
      return undefined;
    };
    if (found.by_answer !== null) {
      threads.push(Number(found.by_answer));
      continue;
    }
    const answeredHere = answered.length
      ? earlier((k) => !!messages[k]!.parsed.messageId && answered.includes(messages[k]!.parsed.messageId!))
      : undefined;
    if (answeredHere !== undefined) {
      threads.push(threads[answeredHere]!);
      continue;
    }
    if (subject !== undefined) {
      // The most recent of the stored candidate and the batch's own (received now unless dated).
      const at = (k: number) => messages[k]!.receivedAt?.getTime() ?? now;
      let best: { thread: number; at: number } | undefined = found.by_subject
        ? { thread: Number(found.by_subject), at: found.subject_at!.getTime() }
        : undefined;
      for (let k = 0; k < j; k++) {
        const other = messages[k]!;
        if (
          other.accountId === m.accountId &&
          at(k) > now - SUBJECT_DAYS * 86_400_000 &&
          threadSubject(other.parsed.subject) === subject &&
          people.includes(other.parsed.addresses.from?.[0]?.email ?? '') &&
          (!best || at(k) > best.at)
        )
          best = { thread: threads[k]!, at: at(k) };
      }
      if (best) {
        threads.push(best.thread);
        continue;
      }
    }
    threads.push(Number(found.fresh));
  }
  return threads;
}
